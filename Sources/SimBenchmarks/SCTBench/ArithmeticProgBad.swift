import SimCore

/// SCTBench `CS.arithmetic_prog_bad` (SV-COMP): a producer and a consumer hand over three items through
/// a mutex and two condition variables; the consumer sums its round numbers, and `main` asserts after
/// joining both that the total is *not* `N(N+1)/2` — which it always is: the bug shows in every
/// schedule that completes (the study counts such benchmarks as trivial).
enum ArithmeticProgBad {
    static let scenario = SCTBench.benchmark(
        "arithmetic_prog_bad", origin: "SCTBench CS/arithmetic_prog_bad.c",
        summary: "producer and consumer over conditions; main's final assertion fails whenever both finish"
    ) { program in
        let sim = program.simulation
        let n = 3
        let m = program.mutex("m")
        let empty = program.condition("empty")
        let full = program.condition("full")
        let num = sim.shared("num", 0)
        let total = sim.shared("total", 0)
        let flag = sim.shared("flag", false)
        let i = Box(0)
        let producer = program.thread("thread1") {
            Op.repeatWhile({ i.value < n }) {
                Op.lock(m)
                Op.repeatWhile({ num.read() > 0 }) { Op.wait(empty, m) }
                Op.step("write num") { num.write(num.read() + 1) }
                Op.unlock(m)
                Op.signal(full)
                Op.local { i.value += 1 }
            }
        }
        let j = Box(0)
        let consumer = program.thread("thread2") {
            Op.repeatWhile({ j.value < n }) {
                Op.lock(m)
                Op.repeatWhile({ num.read() == 0 }) { Op.wait(full, m) }
                Op.step("write num") {
                    total.write(total.read() + j.value)
                    num.write(num.read() - 1)
                }
                Op.unlock(m)
                Op.signal(empty)
                Op.local { j.value += 1 }
            }
            Op.step("write total") {
                total.write(total.read() + j.value)
                flag.write(true)
            }
        }
        program.main {
            Op.spawn(producer)
            Op.spawn(consumer)
            Op.join(producer)
            Op.join(consumer)
            Op.step("read total") {
                if flag.read() {
                    let sum = total.read()
                    program.check(sum != n * (n + 1) / 2, "total is \(sum)")
                }
            }
        }
    }
}
