import SimCore

/// SCTBench `CS.stack_bad` (SV-COMP): a pusher and a popper of a 10-slot stack, each round one
/// critical section under `m`. The popper pops whenever `flag` was ever set, so it can pop more
/// than was pushed: `assert(pop != UNDERFLOW)` fails.
enum StackBad {
    static let scenario = SCTBench.benchmark(
        "stack_bad", origin: "SCTBench CS/stack_bad.c",
        summary: "a popper that only checks 'ever pushed' underflows the stack"
    ) { program in
        let sim = program.simulation
        let m = program.mutex("m")
        let size = 10
        var stack = [Int](repeating: 0, count: size)
        let top = sim.shared("top", 0)
        let flag = sim.shared("flag", false)
        let pushes = Box(0)
        let t1 = program.thread("t1") {
            Op.repeatWhile({ pushes.value < size }) {
                Op.lock(m)
                Op.step("write top") {
                    let at = top.read()
                    program.check(at != size, "push overflowed")
                    if at < size {
                        stack[at] = pushes.value
                        top.write(at + 1)
                    }
                    flag.write(true)
                }
                Op.unlock(m)
                Op.local { pushes.value += 1 }
            }
        }
        let pops = Box(0)
        let t2 = program.thread("t2") {
            Op.repeatWhile({ pops.value < size }) {
                Op.lock(m)
                Op.step("write top") {
                    if flag.read() {
                        let at = top.read()
                        program.check(at != 0, "pop underflowed")
                        if at > 0 {
                            top.write(at - 1)
                            _ = stack[at - 1]
                        }
                    }
                }
                Op.unlock(m)
                Op.local { pops.value += 1 }
            }
        }
        program.main {
            Op.spawn(t1)
            Op.spawn(t2)
            Op.join(t1)
            Op.join(t2)
        }
    }
}
