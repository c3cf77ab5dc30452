import SimCore

/// SCTBench `CS.din_phil2_sat` … `CS.din_phil7_sat` (SV-COMP `din_philN_sat.c`; mc-imperial/sctbench
/// d59ab26, `benchmarks/concurrent-software-benchmarks/din_philN_sat.c`): N philosophers take their
/// right then left fork inside one global atomic section (`__ESBMC_atomic_begin/end`, which the
/// suite's `common.inc` defines as locking and unlocking one global mutex), so they cannot deadlock.
/// The originals then differ, and each port keeps its original's difference:
/// - N = 2, 3, 4: `++phil` and the check `phil == N` run unprotected (a racy read, write and read);
///   the assertion fails in every schedule that does not lose an increment.
/// - N = 5, 6: `++phil` and the check run inside a second atomic section, so no increment is lost
///   and the last philosopher always fails the assertion.
/// - N = 7: the first atomic section ends with a second `__ESBMC_atomic_begin` (not `_end`), so the
///   first philosopher to get there re-locks the global mutex it holds: a self-deadlock (a default
///   pthread mutex is not recursive), and every other thread then waits on that mutex or a join.
/// The study counts all of these as trivial (buggy in every or almost every schedule).
enum DinPhilSat {
    /// How the original ends its first atomic section and guards `++phil`.
    enum Shape {
        /// `atomic_end`, then `++phil` and the check unprotected (N = 2, 3, 4).
        case racyCount
        /// `atomic_end`, then `++phil` and the check in a second atomic section (N = 5, 6).
        case atomicCount
        /// A second `atomic_begin` where `atomic_end` belongs: a self-deadlock (N = 7).
        case selfDeadlock
    }

    /// The original's shape for `n` philosophers.
    static func shape(philosophers n: Int) -> Shape {
        switch n {
        case 5, 6: .atomicCount
        case 7: .selfDeadlock
        default: .racyCount
        }
    }

    static func scenario(philosophers n: Int) -> Scenario {
        SCTBench.benchmark(
            "din_phil\(n)_sat", origin: "SCTBench CS/din_phil\(n)_sat.c at d59ab26",
            summary: "\(n) philosophers in an atomic section; the count of those done reaches \(n)"
        ) { program in
            let sim = program.simulation
            let atomic = program.mutex("atomic")
            let forks = (0..<n).map { program.mutex("fork.\($0)") }
            let phil = sim.shared("phil", 0)
            var philosophers: [BenchThread] = []
            for id in 0..<n {
                let (left, right) = (forks[id], forks[(id + 1) % n])
                let seen = Box(0)
                let shape = shape(philosophers: n)
                philosophers.append(
                    program.thread("philosopher.\(id)") {
                        Op.lock(atomic)
                        Op.lock(right)
                        Op.lock(left)
                        Op.unlock(left)
                        Op.unlock(right)
                        switch shape {
                        case .racyCount:
                            Op.unlock(atomic)
                            // `++phil` then `phil == N`: a racy read, write and read.
                            Op.step("read phil") { seen.value = phil.read() }
                            Op.step("write phil") { phil.write(seen.value + 1) }
                            Op.step("read phil") { program.check(phil.read() != n, "phil reached \(n)") }
                        case .atomicCount:
                            Op.unlock(atomic)
                            // `++phil; if (phil == N) assert(0);` inside the second atomic section: one block.
                            Op.lock(atomic)
                            Op.step("write phil") {
                                phil.write(phil.read() + 1)
                                program.check(phil.read() != n, "phil reached \(n)")
                            }
                            Op.unlock(atomic)
                        case .selfDeadlock:
                            // The original's second `__ESBMC_atomic_begin`: re-locks the mutex it holds.
                            Op.lock(atomic)
                            Op.lock(atomic)
                            Op.step("write phil") {
                                phil.write(phil.read() + 1)
                                program.check(phil.read() != n, "phil reached \(n)")
                            }
                            Op.unlock(atomic)
                        }
                    })
            }
            program.main {
                for thread in philosophers { Op.spawn(thread) }
                for thread in philosophers { Op.join(thread) }
            }
        }
    }
}
