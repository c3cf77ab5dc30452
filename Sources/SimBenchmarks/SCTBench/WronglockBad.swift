import SimCore

/// SCTBench `CS.wronglock_bad` and `CS.wronglock_3_bad` (SV-COMP `wronglock_bad.c`): one thread
/// increments `dataValue` under `dataLock` and asserts the increment took; the others increment it
/// under a *different* lock, so one of their increments can land between its read and its check.
/// The unprotected accesses race, so each read and write is a scheduling point.
enum WronglockBad {
    static func scenario(name: String, others: Int) -> Scenario {
        SCTBench.benchmark(
            name, origin: "SCTBench CS/\(name).c (1 checker, \(others) incrementers)",
            summary: "incrementers use the wrong lock; the checker's read-increment-check is interleaved"
        ) { program in
            let sim = program.simulation
            let dataLock = program.mutex("dataLock")
            let thisLock = program.mutex("thisLock")
            let data = sim.shared("dataValue", 0)
            let (x, incremented, after) = (Box(0), Box(0), Box(0))
            let checker = program.thread("funcA") {
                Op.lock(dataLock)
                Op.step("read dataValue") { x.value = data.read() }
                Op.step("read dataValue") { incremented.value = data.read() + 1 }
                Op.step("write dataValue") { data.write(incremented.value) }
                Op.step("read dataValue") { after.value = data.read() }
                Op.local { program.check(after.value == x.value + 1, "dataValue is \(after.value), read \(x.value)") }
                Op.unlock(dataLock)
            }
            var incrementers: [BenchThread] = []
            for index in 0..<others {
                let seen = Box(0)
                incrementers.append(
                    program.thread("funcB.\(index)") {
                        Op.lock(thisLock)
                        Op.step("read dataValue") { seen.value = data.read() }
                        Op.step("write dataValue") { data.write(seen.value + 1) }
                        Op.unlock(thisLock)
                    })
            }
            program.main {
                Op.spawn(checker)
                for thread in incrementers { .spawn(thread) }
                Op.join(checker)
                for thread in incrementers { .join(thread) }
            }
        }
    }
}
