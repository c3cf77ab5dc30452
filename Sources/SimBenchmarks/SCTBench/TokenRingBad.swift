import SimCore

/// SCTBench `CS.token_ring_bad` (SV-COMP): three threads pass a value around a ring
/// (`x1 = (x3 + 1) % 4`, `x2 = x1`, `x3 = x2`), each in an atomic section; a fourth asserts that all
/// three agree once every flag is set, which holds only for the order t1, t2, t3.
enum TokenRingBad {
    static let scenario = SCTBench.benchmark(
        "token_ring_bad", origin: "SCTBench CS/token_ring_bad.c",
        summary: "three atomic ring updates in any order; a checker expects them to agree"
    ) { program in
        let sim = program.simulation
        let atomic = program.mutex("atomic")
        let x1 = sim.shared("x1", 1)
        let x2 = sim.shared("x2", 2)
        let x3 = sim.shared("x3", 1)
        let f1 = sim.shared("flag1", false)
        let f2 = sim.shared("flag2", false)
        let f3 = sim.shared("flag3", false)
        func member(_ name: String, _ body: @escaping () -> Void) -> BenchThread {
            program.thread(name) {
                Op.lock(atomic)
                Op.step("write ring") { body() }
                Op.unlock(atomic)
            }
        }
        let t1 = member("t1") {
            x1.write((x3.read() + 1) % 4)
            f1.write(true)
        }
        let t2 = member("t2") {
            x2.write(x1.read())
            f2.write(true)
        }
        let t3 = member("t3") {
            x3.write(x2.read())
            f3.write(true)
        }
        let t4 = member("t4") {
            if f1.read() && f2.read() && f3.read() {
                let (a, b, c) = (x1.read(), x2.read(), x3.read())
                program.check(a == b && b == c, "ring disagrees: x1 = \(a), x2 = \(b), x3 = \(c)")
            }
        }
        program.main {
            Op.spawn(t1)
            Op.spawn(t2)
            Op.spawn(t3)
            Op.spawn(t4)
        }
    }
}
