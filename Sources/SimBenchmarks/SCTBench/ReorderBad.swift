import SimCore

/// SCTBench `CS.reorder_N_bad` (SV-COMP `reorder_bad.c`, run with N-1 setters and one checker): each
/// setter writes `a = 1` then `b = -1`; the checker asserts `(a == 0 && b == 0) || (a == 1 && b == -1)`.
/// The bug needs the checker's reads between one setter's two writes. The accesses race, so each is a
/// scheduling point, and the checker's condition reads in C's short-circuit order.
enum ReorderBad {
    static func scenario(threads: Int) -> Scenario {
        SCTBench.benchmark(
            "reorder_\(threads)_bad", origin: "SCTBench CS/reorder_bad.c (\(threads - 1) setters, 1 checker)",
            summary: "\(threads - 1) setters write a then b; the checker reads between one setter's writes"
        ) { program in
            let sim = program.simulation
            let a = sim.shared("a", 0)
            let b = sim.shared("b", 0)
            var setters: [BenchThread] = []
            for index in 0..<(threads - 1) {
                setters.append(
                    program.thread("set.\(index)") {
                        Op.step("write a") { a.write(1) }
                        Op.step("write b") { b.write(-1) }
                    })
            }
            let (a1, b1, a2, b2) = (Box(0), Box(0), Box(0), Box(0))
            let checker = program.thread("check") {
                Op.step("read a") { a1.value = a.read() }
                Op.when({ a1.value == 0 }) {
                    Op.step("read b") { b1.value = b.read() }
                }
                Op.when({ !(a1.value == 0 && b1.value == 0) }) {
                    Op.step("read a") { a2.value = a.read() }
                    Op.when({ a2.value == 1 }) {
                        Op.step("read b") { b2.value = b.read() }
                    }
                    Op.local {
                        program.check(
                            a2.value == 1 && b2.value == -1,
                            "checker saw a = \(a1.value)/\(a2.value), b = \(b1.value)/\(b2.value)")
                    }
                }
            }
            program.main {
                for setter in setters { .spawn(setter) }
                Op.spawn(checker)
                for setter in setters { .join(setter) }
                Op.join(checker)
            }
        }
    }
}
