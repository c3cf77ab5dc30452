import ArgumentParser
import SimCore
import SimEngine

struct RunCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run one schedule of a scenario.",
        discussion: """
            The trace of a failing run is written (to --out, or under --failure-dir) and its replay command \
            printed.

            \(ExitStatus.helpText(for: codes))
            """)

    /// The codes `run` can return (the exit-code test walks each one).
    static let codes = [
        ExitStatus.ok, ExitStatus.failure, ExitStatus.inconclusive, ExitStatus.usage, ExitStatus.cannotWrite,
        ExitStatus.interrupted,
    ]

    @Argument(help: "The scenario to run (see `list`).") var scenario: String
    @OptionGroup var variant: VariantOption
    @Option(parsing: .unconditional, help: "The seed of the schedule (0 to 2^64-1).", transform: NumberArgument.seed)
    var seed: UInt64 = 0
    @Option(help: StrategyArgument.help, transform: StrategyArgument.parse)
    var strategy: StrategySpec = StrategyArgument.defaultSpec
    @Option(name: .shortAndLong, help: "Write the trace here (always; by default only a failing run is written).")
    var out: String?
    @Option(help: "Where a failing run's trace goes when --out is not given.") var failureDir = "simrun-failures"
    @Flag(help: "Run the seed in two separate processes and compare their events (exit 1 when they differ).")
    var checkDeterminism = false
    @Option(
        parsing: .unconditional,
        help:
            "Add this many noise lanes: background jobs that touch nothing, scheduled across the whole run and recorded like any job (0...64).",
        transform: NumberArgument.int(0...RunPlan.maxNoise)
    ) var noise: Int = 0

    @Flag(
        help:
            "Preempt inside synchronous code: jobs run on carrier threads that take turns, and every pthread mutex lock and condition operation (NSLock, NSCondition, the concurrency runtime's locks) is a point where the schedule may switch carriers (Linux)."
    ) var preempt = false

    func validate() throws {
        if !(0...RunPlan.maxNoise).contains(noise) {
            throw ValidationError("--noise must be 0...\(RunPlan.maxNoise), got \(noise)")
        }
    }
    @OptionGroup var output: OutputOptions
    @OptionGroup var build: BuildLabelOption

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        output.apply(to: context.console)
        if let out { try OutputPath.prepareFile(out, flag: "--out") }
        let found = try context.catalog.scenario(named: scenario)
        let chosen = try context.catalog.variant(variant.variant, of: found)
        let run = ScheduleRun(
            request: .init(
                scenario: found.name, variant: chosen, seed: seed, strategy: strategy, out: out,
                failureDir: failureDir, noise: noise, carriers: carrierMode, output: output.request))
        if checkDeterminism {
            return try self.checkDeterminism(plan: try determinismPlan(run, context), context: context)
        }
        // The model may trap on this schedule, or on the fifo run that plans it: it runs in a child
        // (`RerunCommand`, told what to run by a typed request), and a trap is a crash finding.
        guard let outcome = try RerunCommand.run(.run(run.request), context: context) else {
            return try run.execute(context: context)
        }
        guard case .crashed = outcome else {
            return ChildCrashReport.status(of: outcome, command: "run", trace: nil, console: context.console)
        }
        return try run.reportCrash(plan: try run.crashedPlan(context: context), context: context)
    }

    /// The plan of a determinism check, which runs nothing in this process: planned in a child
    /// (with a step estimate of 1 when the fifo run traps there, as for a run whose plan trapped).
    private func determinismPlan(_ run: ScheduleRun, _ context: CommandContext) throws(CommandFailure) -> RunPlan {
        _ = try context.isolation.launcher(for: "run --check-determinism")
        return try run.crashedPlan(context: context)
    }

    /// `--preempt`: lock preemption on carriers; else the one-thread path.
    private var carrierMode: CarrierMode { preempt ? .preemptLocks : .off }
}
