import SimCore

/// SCTBench `CS.fsbench_bad` (SV-COMP, after Flanagan and Godefroid's file-system benchmark): 27
/// threads each take the lock of inode `tid % 32` and allocate a block under per-block locks. There
/// are only 26 inode locks, so thread 26 indexes past the array: the original asserts
/// `i < NUMBLOCKS` before the lock, which fails in every schedule that reaches thread 26.
enum FsbenchBad {
    static let scenario = SCTBench.benchmark(
        "fsbench_bad", origin: "SCTBench CS/fsbench_bad.c",
        summary: "27 threads allocate blocks under 26 inode locks; thread 26 indexes past the lock array"
    ) { program in
        let sim = program.simulation
        let blocks = 26
        let inodes = 32
        let threadCount = 27
        let inodeLocks = (0..<blocks).map { program.mutex("locki.\($0)") }
        let blockLocks = (0..<blocks).map { program.mutex("lockb.\($0)") }
        let busy = (0..<blocks).map { sim.shared("busy.\($0)", false) }
        let inode = (0..<inodes).map { sim.shared("inode.\($0)", 0) }
        var workers: [BenchThread] = []
        for tid in 0..<threadCount {
            let i = tid % inodes
            let block = Box((i * 2) % blocks)
            let tries = Box(0)
            let allocating = Box(false)
            let done = Box(false)
            workers.append(
                program.thread("thread.\(tid)") {
                    Op.when({ i >= blocks }) {
                        Op.step("read inode") { program.check(false, "inode index \(i) is past \(blocks) locks") }
                    } otherwise: {
                        Op.lock(inodeLocks[min(i, blocks - 1)])
                        Op.step("read inode") { allocating.value = inode[i].read() == 0 }
                        Op.when({ allocating.value }) {
                            Op.repeatWhile({ !done.value && tries.value < blocks / 2 }) {
                                Op.deferred { .lock(blockLocks[block.value]) }
                                Op.step("write busy") {
                                    if !busy[block.value].read() {
                                        busy[block.value].write(true)
                                        inode[i].write(block.value + 1)
                                        done.value = true
                                    }
                                }
                                Op.deferred { .unlock(blockLocks[block.value]) }
                                Op.local {
                                    if !done.value { block.value = (block.value + 1) % blocks }
                                    tries.value += 1
                                }
                            }
                        }
                        Op.unlock(inodeLocks[min(i, blocks - 1)])
                    }
                })
        }
        program.main {
            for worker in workers { Op.spawn(worker) }
            for worker in workers { Op.join(worker) }
        }
    }
}
