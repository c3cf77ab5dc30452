import SimCore

/// SCTBench `CS.reorder_N_bad` (SV-COMP `reorder_bad.c`; mc-imperial/sctbench d59ab26,
/// `benchmarks/concurrent-software-benchmarks/reorder_N_bad.c`, whose `iSet`/`iCheck` give the
/// thread counts: 2/1, 3/1, 4/1, 9/1 for N = 3, 4, 5, 10, and 10/10 for N = 20): each setter writes
/// `a = 1` then `b = -1`; each checker asserts `(a == 0 && b == 0) || (a == 1 && b == -1)`. The bug
/// needs a checker's reads between one setter's two writes. The accesses race, so each is a
/// scheduling point, and a checker's condition reads in C's short-circuit order. `main` spawns the
/// setters, then the checkers, then joins them in that order, as the original does.
enum ReorderBad {
    static func scenario(name: Int, setters: Int, checkers: Int) -> Scenario {
        SCTBench.benchmark(
            "reorder_\(name)_bad",
            origin:
                "SCTBench CS/reorder_\(name)_bad.c at d59ab26 (\(setters) setters, \(checkers) checker\(checkers == 1 ? "" : "s"))",
            summary:
                "\(setters) setters write a then b; \(checkers == 1 ? "the checker reads" : "a checker reads") between one setter's writes"
        ) { program in
            let sim = program.simulation
            let a = sim.shared("a", 0)
            let b = sim.shared("b", 0)
            var setterThreads: [BenchThread] = []
            for index in 0..<setters {
                setterThreads.append(
                    program.thread("set.\(index)") {
                        Op.step("write a") { a.write(1) }
                        Op.step("write b") { b.write(-1) }
                    })
            }
            let checkerThreads = (0..<checkers).map { index in
                checker(program, name: checkers == 1 ? "check" : "check.\(index)", a: a, b: b)
            }
            program.main {
                for setter in setterThreads { .spawn(setter) }
                for checker in checkerThreads { .spawn(checker) }
                for setter in setterThreads { .join(setter) }
                for checker in checkerThreads { .join(checker) }
            }
        }
    }

    /// One `checkThread`: reads `a` and `b` in C's short-circuit order and asserts what it saw.
    private static func checker(
        _ program: BenchProgram, name: String, a: SharedCell<Int>, b: SharedCell<Int>
    ) -> BenchThread {
        let (a1, b1, a2, b2) = (Box(0), Box(0), Box(0), Box(0))
        return program.thread(name) {
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
    }
}
