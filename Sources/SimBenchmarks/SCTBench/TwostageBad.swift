import SimCore

/// SCTBench `CS.twostage_bad` and `CS.twostage_100_bad` (SV-COMP `twostage_bad.c`): a writer sets
/// `data1` then, in a second critical section, `data2 = data1 + 1`; readers that see `data1` set
/// read `data2` and assert it is `data1 + 1`, which fails between the writer's two stages.
enum TwostageBad {
    static func scenario(name: String, readers: Int) -> Scenario {
        SCTBench.benchmark(
            name, origin: "SCTBench CS/twostage_bad.c (1 writer, \(readers) reader\(readers == 1 ? "" : "s"))",
            summary: "a two-stage update under two locks; a reader between the stages sees them disagree"
        ) { program in
            let sim = program.simulation
            let data1Lock = program.mutex("data1Lock")
            let data2Lock = program.mutex("data2Lock")
            let data1 = sim.shared("data1Value", 0)
            let data2 = sim.shared("data2Value", 0)
            let writer = program.thread("funcA") {
                Op.lock(data1Lock)
                Op.step("write data1Value") { data1.write(1) }
                Op.unlock(data1Lock)
                Op.lock(data2Lock)
                Op.step("write data2Value") { data2.write(data1.read() + 1) }
                Op.unlock(data2Lock)
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
                Op.spawn(writer)
                for reader in readerThreads { .spawn(reader) }
                Op.join(writer)
                for reader in readerThreads { .join(reader) }
            }
        }
    }
}
