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
        ExitStatus.ok, ExitStatus.failure, ExitStatus.usage, ExitStatus.cannotWrite, ExitStatus.interrupted,
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
            "Add this many noise lanes: background jobs that touch nothing, scheduled across the whole run and recorded like any job (0...64)."
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
    /// Set by the parent on the child it runs the schedule in (`GuardedRun`).
    @Flag(help: .hidden) var guarded = false

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        output.apply(to: context.console)
        if let out { try OutputPath.prepareFile(out, flag: "--out") }
        let found = try context.catalog.scenario(named: scenario)
        let chosen = try context.catalog.variant(variant.variant, of: found)
        // The model may trap on this schedule, or on the fifo run that plans it: it runs in a child,
        // and a trap is a crash finding.
        if !checkDeterminism, !guarded, let termination = try GuardedRun.inChild() {
            guard case .signaled = termination, !Interruption.isRequested else {
                return GuardedRun.status(of: termination, command: "run", trace: nil, console: context.console)
            }
            return try reportCrash(plan: try crashedPlan(found, chosen), context: context)
        }
        if checkDeterminism {
            return try self.checkDeterminism(plan: try determinismPlan(found, chosen), console: context.console)
        }
        var plan = RunPlan(scenario: found, variant: chosen, strategy: strategy, noise: noise)
        plan.carriers = carrierMode
        var result = plan.run(seed: seed, strategy: plan.makeStrategy())
        var path = out
        if path == nil && result.verdict.isFailure {
            path = "\(failureDir)/\(found.name)-\(plan.variant)-seed\(seed).simtrace"
        }
        if let wanted = path {
            let record = { (target: String) throws(CommandFailure) -> RunResult in
                try Recorder.record(
                    plan: plan, seed: seed, strategy: plan.makeStrategy(), strategyName: strategy.description,
                    to: target)
            }
            if out != nil && !result.verdict.isFailure {
                try OutputPath.createParent(of: wanted)
                result = try record(wanted)
            } else {
                // A failing run's trace is never lost to a write error: FindingStore saves it in a
                // fresh temporary directory instead, and "bug found" (1) still wins over 73.
                (result, path) = try FindingStore(console: context.console).save(to: wanted, record)
            }
        }
        let failed = result.verdict.isFailure
        let status = failed ? ExitStatus.failure : ExitStatus.ok
        let console = context.console
        console.verdict(
            "\(found.name)/\(plan.variant) seed \(seed) \(strategy): \(failed ? "FAIL" : "pass")"
                + " — \(result.steps) steps, \(result.eventCount) events, \(result.tape.count) decisions, digest \(result.digest)"
        )
        if failed { console.out("  \(result.verdict)") }
        if let path {
            console.out("trace: \(path)")
            if failed { console.out("replay: \(context.programName) replay \(shellQuoted(path))") }
        }
        console.json(
            ResultDocument(
                command: "run", verdict: failed ? "fail" : "pass", exitCode: status,
                members: ResultDocument.run(
                    scenario: found.name, variant: plan.variant, strategy: strategy.description, seed: seed)
                    + [
                        .init("outcome", ResultDocument.outcome(result.verdict)),
                        .init("steps", .int(Int64(result.steps))), .init("events", .unsigned(result.eventCount)),
                        .init("decisions", .int(Int64(result.tape.count))),
                        .init("digest", .string(result.digest.description)), .init("trace", .optional(path)),
                        .init("findings", ResultDocument.findings(result.verdict, seed: seed, trace: path)),
                        .init("sometimes", ResultDocument.sometimes(result)),
                    ]
            ).text)
        return status
    }

    /// The plan of a run whose child trapped: probed here when the fifo run does not trap (recorded in
    /// a child first to know), else with a step estimate of 1 — the trap may have been in that probe,
    /// and a run planned without it is still one the trace header describes and replays.
    private func crashedPlan(_ found: Scenario, _ chosen: String) throws(CommandFailure) -> RunPlan {
        let probe = DeterminismCheck.temporaryTracePath("probe")
        defer { unlink(probe) }
        let fifo = try? IsolatedRecording(
            scenario: found.name, variant: chosen, strategy: StrategySpec.plainOrder.description, noise: noise, estimatedSteps: 1,
            carriers: carrierMode
        ).record(seed: 0, to: probe)
        // Not recorded (no usable $TMPDIR): probed here, as before.
        var plan =
            fifo?.crashed == true
            ? RunPlan(scenario: found, variant: chosen, strategy: strategy, estimatedSteps: 1, noise: noise)
            : RunPlan(scenario: found, variant: chosen, strategy: strategy, noise: noise)
        plan.carriers = carrierMode
        return plan
    }

    /// The plan of a determinism check, which runs nothing in this process: its step estimate is the
    /// fifo run's, recorded in a child (1 when that run traps, as for a run whose plan trapped).
    private func determinismPlan(_ found: Scenario, _ chosen: String) throws(CommandFailure) -> RunPlan {
        guard ChildProcess.isAvailable else {
            var plan = RunPlan(scenario: found, variant: chosen, strategy: strategy, noise: noise)
            plan.carriers = carrierMode
            return plan
        }
        let probe = DeterminismCheck.temporaryTracePath("probe")
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

    /// The run trapped in its child: records it again in a child that checkpoints every record,
    /// seals the trace up to the trap, and prints the crash with its trace and replay command.
    private func reportCrash(plan: RunPlan, context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        let wanted = out ?? "\(failureDir)/\(plan.scenario.name)-\(plan.variant)-seed\(seed).simtrace"
        let recording = IsolatedRecording(
            scenario: plan.scenario.name, variant: plan.variant, strategy: strategy.description, noise: plan.noise,
            estimatedSteps: plan.estimatedSteps, carriers: plan.carriers)
        let recorded: IsolatedRecording.Outcome
        let path: String
        if out != nil {
            try OutputPath.createParent(of: wanted)
            recorded = try recording.record(seed: seed, to: wanted)
            path = wanted
        } else {
            (recorded, path) = try FindingStore(console: console).save(to: wanted) {
                (target: String) throws(CommandFailure) -> IsolatedRecording.Outcome in
                try recording.record(seed: seed, to: target)
            }
        }
        let title = "\(plan.scenario.name)/\(plan.variant) seed \(seed) \(strategy)"
        if recorded.crashed {
            console.verdict(
                "\(title): CRASH — crashed at event \(recorded.eventCount) (\(crashPlace(recorded.lastEventText))): \(recorded.verdict.message)"
            )
            for line in try CrashContext(path: path).lines { console.out(line) }
        } else {
            console.verdict(
                "\(title): CRASH in a child, but NONDETERMINISTIC: recorded again it ran to \(recorded.reranTo)"
            )
        }
        console.out("trace: \(path)")
        console.out("replay: \(context.programName) replay \(shellQuoted(path))")
        console.json(
            ResultDocument(
                command: "run", verdict: "fail", exitCode: ExitStatus.failure,
                members: ResultDocument.run(
                    scenario: plan.scenario.name, variant: plan.variant, strategy: strategy.description, seed: seed)
                    + [
                        .init("outcome", ResultDocument.outcome(recorded.verdict)),
                        .init("events", .unsigned(recorded.eventCount)),
                        .init("digest", .string(recorded.digest.description)), .init("trace", .string(path)),
                        .init("findings", ResultDocument.findings(recorded.verdict, seed: seed, trace: path)),
                    ]
            ).text)
        return ExitStatus.failure
    }
}
