import SimCore

/// SCTBench `CS.din_phil2_sat` … `CS.din_phil7_sat` (SV-COMP `din_philN_sat.c`): N philosophers take
/// their right then left fork inside one global atomic section, so they cannot deadlock; each then
/// increments the unprotected counter `phil`, and the last asserts `phil != N`. The assertion fails in
/// every schedule that does not lose an increment (the study counts these as trivial).
enum DinPhilSat {
    static func scenario(philosophers n: Int) -> Scenario {
        SCTBench.benchmark(
            "din_phil\(n)_sat", origin: "SCTBench CS/din_phil\(n)_sat.c",
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
                philosophers.append(
                    program.thread("philosopher.\(id)") {
                        Op.lock(atomic)
                        Op.lock(right)
                        Op.lock(left)
                        Op.unlock(left)
                        Op.unlock(right)
                        Op.unlock(atomic)
                        // `++phil` then `phil == N`: a racy read, write and read.
                        Op.step("read phil") { seen.value = phil.read() }
                        Op.step("write phil") { phil.write(seen.value + 1) }
                        Op.step("read phil") { program.check(phil.read() != n, "phil reached \(n)") }
                    })
            }
            program.main {
                for thread in philosophers { Op.spawn(thread) }
                for thread in philosophers { Op.join(thread) }
            }
        }
    }
}
