import SimCore

/// SCTBench (Thomson, Donaldson, Betts: "Concurrency Testing Using Schedule Bounding: an Empirical
/// Study", PPoPP 2014; TOPC 2016; programs at github.com/mc-imperial/sctbench) ported to the kernel:
/// each benchmark is our own Swift written from the original's logic, one thread per lane, one job
/// per scheduling point the study counted, and the original's bug oracle (assertion, deadlock, crash).
public enum SCTBench {
    /// The group name (`simrun list --group sctbench`).
    public static let group = "sctbench"

    /// Every ported benchmark, in the study's order (CS, CB, CHESS, …).
    public static let scenarios: [Scenario] = [
        AccountBad.scenario,
        BluetoothDriverBad.scenario,
        Carter01Bad.scenario,
        CircularBufferBad.scenario,
        Deadlock01Bad.scenario,
        Lazy01Bad.scenario,
        QueueBad.scenario,
        ReorderBad.scenario(threads: 3),
        ReorderBad.scenario(threads: 4),
        ReorderBad.scenario(threads: 5),
        ReorderBad.scenario(threads: 10),
        ReorderBad.scenario(threads: 20),
        StackBad.scenario,
        TokenRingBad.scenario,
        TwostageBad.scenario(name: "twostage_bad", readers: 1),
        WronglockBad.scenario(name: "wronglock_bad", others: 7),
    ]

    /// A benchmark scenario: one `buggy` variant (the original program), in the `sctbench` group.
    /// `origin` names the suite and file it was ported from.
    static func benchmark(
        _ name: String, origin: String, summary: String, maxSteps: Int = 20_000,
        build: @escaping @Sendable (BenchProgram) -> Void
    ) -> Scenario {
        Scenario(
            name: name, summary: summary,
            variants: [.init("buggy", "ported from \(origin), bug included")],
            limits: RunLimits(maxSteps: maxSteps), group: group
        ) { simulation, _ in
            build(BenchProgram(simulation))
        }
    }
}
