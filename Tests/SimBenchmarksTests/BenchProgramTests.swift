import SimBenchmarks
import SimCapture
import SimCore
import SimTestSupport
import Testing

@Suite struct BenchProgramTests {
    @Test func opposingLockOrdersDeadlockUnderSomeScheduleAndNameTheHolders() {
        var deadlocks = 0
        var passes = 0
        for seed in 0..<60 {
            let result = simulate(seed: UInt64(seed), strategy: RandomStrategy()) { sim in
                let program = BenchProgram(sim)
                let a = program.mutex("a")
                let b = program.mutex("b")
                let t1 = program.thread("t1") {
                    BenchOp.lock(a)
                    BenchOp.lock(b)
                    BenchOp.unlock(b)
                    BenchOp.unlock(a)
                }
                let t2 = program.thread("t2") {
                    BenchOp.lock(b)
                    BenchOp.lock(a)
                    BenchOp.unlock(a)
                    BenchOp.unlock(b)
                }
                program.main {
                    BenchOp.spawn(t1)
                    BenchOp.spawn(t2)
                    BenchOp.join(t1)
                    BenchOp.join(t2)
                }
            }
            switch result.verdict {
            case .deadlock(let message):
                deadlocks += 1
                #expect(message.contains("t1 waits for lock b (held by t2)"))
                #expect(message.contains("t2 waits for lock a (held by t1)"))
                #expect(message.contains("main waits for join t1"))
            case .pass: passes += 1
            default: Issue.record("unexpected \(result.verdict)")
            }
        }
        #expect(deadlocks > 0 && passes > 0)
    }

    @Test func aConditionWaitSleepsUntilSignalledAndRetakesTheMutex() {
        for seed in 0..<60 {
            let order = OrderLog()
            let result = simulate(seed: UInt64(seed), strategy: RandomStrategy()) { sim in
                let program = BenchProgram(sim)
                let m = program.mutex("m")
                let ready = program.condition("ready")
                let flag = sim.shared("flag", false)
                let consumer = program.thread("consumer") {
                    BenchOp.lock(m)
                    BenchOp.repeatWhile({ !flag.peek }) {
                        BenchOp.wait(ready, m)
                    }
                    BenchOp.step("read flag") {
                        program.check(flag.read(), "woke without the flag")
                        order.append("consumed")
                    }
                    BenchOp.unlock(m)
                }
                let producer = program.thread("producer") {
                    BenchOp.lock(m)
                    BenchOp.step("write flag") {
                        flag.write(true)
                        order.append("produced")
                    }
                    BenchOp.signal(ready)
                    BenchOp.unlock(m)
                }
                program.main {
                    BenchOp.spawn(consumer)
                    BenchOp.spawn(producer)
                }
            }
            #expect(result.verdict == .pass)
            #expect(order.entries == ["produced", "consumed"])
        }
    }

    @Test func aSignalWithNoWaiterIsLostAndTheLateWaiterDeadlocks() {
        let result = simulate { sim in
            let program = BenchProgram(sim)
            let m = program.mutex("m")
            let c = program.condition("c")
            let waiter = program.thread("waiter") {
                BenchOp.lock(m)
                BenchOp.wait(c, m)
                BenchOp.unlock(m)
            }
            program.main {
                BenchOp.signal(c)
                BenchOp.spawn(waiter)
            }
        }
        #expect(result.verdict == .deadlock("every lane blocked: waiter waits for wait c"))
    }

    @Test func everyOperationIsOneJobLabelledWithItsObject() {
        let sink = MemorySink()
        _ = simulate(sink: sink) { sim in
            let program = BenchProgram(sim)
            let m = program.mutex("m")
            let x = sim.shared("x", 0)
            let count = ValueBox(0)
            let t = program.thread("t") {
                BenchOp.repeatWhile({ count.value < 2 }) {
                    BenchOp.lock(m)
                    BenchOp.step("write x") { x.write(x.read() + 1) }
                    BenchOp.unlock(m)
                    BenchOp.local { count.value += 1 }
                }
            }
            program.main {
                BenchOp.spawn(t)
                BenchOp.join(t)
            }
        }
        let picks = sink.events.filter { sink.text($0.kind) == "sched.pick" }.map {
            sink.text($0.lane) + ":" + sink.text($0.subject)
        }
        #expect(
            picks == [
                "main:spawn t", "t:lock m", "t:write x", "t:unlock m", "t:lock m", "t:write x", "t:unlock m",
                "main:join t",
            ])
    }
}
