import ArgumentParser
import SimCore
import SimEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        if checkDeterminism {
            return try self.checkDeterminism(plan: try determinismPlan(found, chosen), console: context.console)
        }
        let run = ScheduleRun(
            request: RunRequest(
                scenario: found.name, variant: chosen, seed: seed, strategy: strategy.description, out: out,
                failureDir: failureDir, noise: noise, carriers: carrierMode, output: output.request),
            strategy: strategy)
        // The model may trap on this schedule, or on the fifo run that plans it: it runs in a child
        // (`simrun _run`, told what to run by a typed request), and a trap is a crash finding.
        guard let outcome = try CommandChild.run(RunChildCommand.name, request: run.request.text) else {
            return try run.execute(found, context: context)
        }
        guard case .crashed = outcome else {
            return ChildCrashReport.status(of: outcome, command: "run", trace: nil, console: context.console)
        }
        return try run.reportCrash(plan: try run.crashedPlan(found), context: context)
    }

    /// The plan of a determinism check, which runs nothing in this process: its step estimate is the
    /// fifo run's, recorded in a child (1 when that run traps, as for a run whose plan trapped).
    private func determinismPlan(_ found: Scenario, _ chosen: String) throws(CommandFailure) -> RunPlan {
        guard ChildProcess.isAvailable else {
            return RunPlan(scenario: found, variant: chosen, strategy: strategy, noise: noise, carriers: carrierMode)
        }
        let probe = try DeterminismCheck.temporaryTracePath("probe")
        defer { unlink(probe) }
        let fifo = try IsolatedRecording(
            scenario: found.name, variant: chosen, strategy: StrategySpec.plainOrder.description, noise: noise, estimatedSteps: 1,
            carriers: carrierMode
        ).record(seed: 0, to: probe)
        let steps = fifo.crashed ? 1 : Int(try TraceInput(path: probe).footer?.steps ?? 1)
        var plan = RunPlan(scenario: found, variant: chosen, strategy: strategy, estimatedSteps: steps, noise: noise)
        plan.carriers = carrierMode
        return plan
    }

    /// `--preempt`: lock preemption on carriers; else the one-thread path.
    private var carrierMode: CarrierMode { preempt ? .preemptLocks : .off }
}
