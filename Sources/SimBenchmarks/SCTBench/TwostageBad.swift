import SimCore

/// SCTBench `CS.twostage_bad` (1 writer, 1 reader) and `CS.twostage_100_bad` (99 writers, 1
/// reader), from SV-COMP's `twostage_bad.c`: a writer sets `data1` then, in a second critical section,
/// `data2 = data1 + 1`; a reader that sees `data1` set reads `data2` and asserts it is `data1 + 1`,
/// which fails between a writer's two stages.
enum TwostageBad {
    static func scenario(name: String, writers: Int, readers: Int) -> Scenario {
        SCTBench.benchmark(
            name, origin: "SCTBench CS/\(name).c (\(writers) writer(s), \(readers) reader(s))",
            summary: "a two-stage update under two locks; a reader between the stages sees them disagree"
        ) { program in
            let sim = program.simulation
            let data1Lock = program.mutex("data1Lock")
            let data2Lock = program.mutex("data2Lock")
            let data1 = sim.shared("data1Value", 0)
            let data2 = sim.shared("data2Value", 0)
            var writerThreads: [BenchThread] = []
            for index in 0..<writers {
                writerThreads.append(
                    program.thread("funcA.\(index)") {
                        Op.lock(data1Lock)
                        Op.step("write data1Value") { data1.write(1) }
                        Op.unlock(data1Lock)
                        Op.lock(data2Lock)
                        Op.step("write data2Value") { data2.write(data1.read() + 1) }
                        Op.unlock(data2Lock)
                    })
            }
            var readerThreads: [BenchThread] = []
            for index in 0..<readers {
                let (t1, t2) = (Box(-1), Box(-1))
                let seen = Box(0)
                readerThreads.append(
                    program.thread("funcB.\(index)") {
                        Op.lock(data1Lock)
                        Op.step("read data1Value") { seen.value = data1.read() }
                        Op.when({ seen.value == 0 }) {
                            Op.unlock(data1Lock)
                        } otherwise: {
                            Op.step("read data1Value") { t1.value = data1.read() }
                            Op.unlock(data1Lock)
                            Op.lock(data2Lock)
                            Op.step("read data2Value") { t2.value = data2.read() }
                            Op.unlock(data2Lock)
                            Op.local {
                                program.check(t2.value == t1.value + 1, "data2 is \(t2.value), data1 was \(t1.value)")
                            }
                        }
                    })
            }
            program.main {
                for writer in writerThreads { Op.spawn(writer) }
                for reader in readerThreads { Op.spawn(reader) }
                for writer in writerThreads { Op.join(writer) }
                for reader in readerThreads { Op.join(reader) }
            }
        }
    }
}
