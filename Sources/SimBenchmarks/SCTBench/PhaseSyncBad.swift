import SimCore

/// SCTBench `CS.phase01_bad` (SV-COMP): two threads run the same body, which locks `x` a second time
/// and never releases it; the other thread then waits for `x` forever — a deadlock in every schedule.
enum Phase01Bad {
    static let scenario = SCTBench.benchmark(
        "phase01_bad", origin: "SCTBench CS/phase01_bad.c",
        summary: "a thread ends holding x; the other waits for it forever: deadlock"
    ) { program in
        let x = program.mutex("x")
        let y = program.mutex("y")
        func body(_ name: String) -> BenchThread {
            program.thread(name) {
                Op.lock(x)
                Op.unlock(x)
                Op.lock(x)
                Op.lock(y)
                Op.unlock(y)
                Op.lock(y)
                Op.unlock(y)
            }
        }
        let t1 = body("t1")
        let t2 = body("t2")
        program.main {
            Op.spawn(t1)
            Op.spawn(t2)
            Op.join(t1)
            Op.join(t2)
        }
    }
}

/// SCTBench `CS.sync01_bad` and `CS.sync02_bad` (SV-COMP): producers and consumers over a mutex and
/// the conditions `empty` and `full`, started with a count that makes a producer wait for an `empty`
/// signal that never comes after the last consumer round — a deadlock in every schedule.
enum SyncBad {
    static func scenario(name: String, rounds: Int, initial: Int, consumerTakes: Bool) -> Scenario {
        SCTBench.benchmark(
            name, origin: "SCTBench CS/\(name).c",
            summary: "producer waits on 'empty' with the count already \(initial): the wake-up never comes"
        ) { program in
            let sim = program.simulation
            let m = program.mutex("m")
            let empty = program.condition("empty")
            let full = program.condition("full")
            let num = sim.shared("num", initial)
            let produced = Box(0)
            let producer = program.thread("producer") {
                Op.repeatWhile({ produced.value < rounds }) {
                    Op.lock(m)
                    Op.repeatWhile({ num.read() > 0 }) { Op.wait(empty, m) }
                    Op.step("write num") { num.write(num.read() + 1) }
                    Op.unlock(m)
                    Op.signal(full)
                    Op.local { produced.value += 1 }
                }
            }
            let consumed = Box(0)
            let consumer = program.thread("consumer") {
                Op.repeatWhile({ consumed.value < rounds }) {
                    Op.lock(m)
                    Op.repeatWhile({ num.read() == 0 }) { Op.wait(full, m) }
                    if consumerTakes {
                        Op.step("write num") { num.write(num.read() - 1) }
                    }
                    Op.unlock(m)
                    Op.signal(empty)
                    Op.local { consumed.value += 1 }
                }
            }
            program.main {
                Op.spawn(producer)
                Op.spawn(consumer)
                Op.join(producer)
                Op.join(consumer)
            }
        }
    }
}
