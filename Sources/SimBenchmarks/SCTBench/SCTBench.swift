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
        ArithmeticProgBad.scenario,
        BluetoothDriverBad.scenario,
        Carter01Bad.scenario,
        CircularBufferBad.scenario,
        Deadlock01Bad.scenario,
        DinPhilSat.scenario(philosophers: 2),
        DinPhilSat.scenario(philosophers: 3),
        DinPhilSat.scenario(philosophers: 4),
        DinPhilSat.scenario(philosophers: 5),
        DinPhilSat.scenario(philosophers: 6),
        DinPhilSat.scenario(philosophers: 7),
        FsbenchBad.scenario,
        Lazy01Bad.scenario,
        Phase01Bad.scenario,
        QueueBad.scenario,
        ReorderBad.scenario(name: 3, setters: 2, checkers: 1),
        ReorderBad.scenario(name: 4, setters: 3, checkers: 1),
        ReorderBad.scenario(name: 5, setters: 4, checkers: 1),
        ReorderBad.scenario(name: 10, setters: 9, checkers: 1),
        ReorderBad.scenario(name: 20, setters: 10, checkers: 10),
        StackBad.scenario,
        SyncBad.scenario(name: "sync01_bad", rounds: 1, initial: 1, consumerTakes: false),
        SyncBad.scenario(name: "sync02_bad", rounds: 2, initial: 2, consumerTakes: true),
        TokenRingBad.scenario,
        TwostageBad.scenario(name: "twostage_bad", writers: 1, readers: 1),
        TwostageBad.scenario(name: "twostage_100_bad", writers: 99, readers: 1),
        WronglockBad.scenario(name: "wronglock_3_bad", others: 3),
        WronglockBad.scenario(name: "wronglock_bad", others: 7),
        StringBufferBad.scenario,
        WorkStealQueue.scenario(stealers: 2),
        WorkStealQueue.scenario(stealers: 1),
    ]

    /// A benchmark scenario in the `sctbench` group: a `buggy` variant (the original program) and,
    /// when `fixed` is given, a `fixed` variant described by it (the original's fix, where it has one).
    /// `origin` names the suite and file it was ported from.
    static func benchmark(
        _ name: String, origin: String, summary: String, fixed: String? = nil, maxSteps: Int = 20_000,
        build: @escaping @Sendable (BenchProgram, _ fixed: Bool) -> Void
    ) -> Scenario {
        var variants: [Scenario.Variant] = [.init("buggy", "ported from \(origin), bug included")]
        if let fixed { variants.append(.init("fixed", fixed)) }
        return Scenario(
            name: name, summary: summary, variants: variants, limits: RunLimits(maxSteps: maxSteps), group: group
        ) { simulation, variant in
            build(BenchProgram(simulation), variant == "fixed")
        }
    }

    /// A benchmark with only its `buggy` variant.
    static func benchmark(
        _ name: String, origin: String, summary: String, maxSteps: Int = 20_000,
        build: @escaping @Sendable (BenchProgram) -> Void
    ) -> Scenario {
        benchmark(name, origin: origin, summary: summary, fixed: nil, maxSteps: maxSteps) { program, _ in
            build(program)
        }
    }
}
