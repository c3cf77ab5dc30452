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

/// One schedule of `simrun run`, from the options the parent parsed (`RunRequest`): run and printed
/// by the child (`simrun _run`), or by the command itself when there is no child; a run whose child
/// trapped is recorded again and reported by the parent (`reportCrash`).
struct ScheduleRun {
    /// The options of the run.
    let request: RunRequest
    /// The request's strategy, parsed.
    let strategy: StrategySpec

    /// The run's step estimate comes from its fifo run, which may trap: run here only in a child.
    func execute(_ found: Scenario, context: CommandContext) throws(CommandFailure) -> Int32 {
        let (seed, out) = (request.seed, request.out)
        let plan = RunPlan(
            scenario: found, variant: request.variant, strategy: strategy, noise: request.noise,
            carriers: request.carriers)
        var result = plan.run(seed: seed, strategy: plan.makeStrategy())
        var path = out
        if path == nil && result.verdict.isFailure {
            path = "\(request.failureDir)/\(found.name)-\(plan.variant)-seed\(seed).simtrace"
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
                // fresh temporary directory instead, and "bug found" (1) still wins over 73. When
                // even that fails, the failure is still reported (from the run in memory), unsaved.
                do {
                    (result, path) = try FindingStore(console: context.console).save(to: wanted, record)
                } catch {
                    context.console.err("\(context.programName): \(error.message); the trace is not saved")
                    path = nil
                }
            }
        }
        let failed = result.verdict.isFailure
        // A pass over work simrun did not control is no plain pass (the run says what it was).
        let unheld = !failed && !result.uncontrolled.isEmpty
        let status = failed ? ExitStatus.failure : unheld ? ExitStatus.inconclusive : ExitStatus.ok
        let console = context.console
        console.verdict(
            "\(found.name)/\(plan.variant) seed \(seed) \(strategy): \(failed ? "FAIL" : unheld ? "INCONCLUSIVE" : "pass")"
                + " — \(result.steps) steps, \(result.eventCount) events, \(result.tape.count) decisions, digest \(result.digest)"
        )
        if failed { console.out("  \(result.verdict)") }
        for observation in result.uncontrolled {
            console.out("  not controlled: \(observation)" + (observation.count > 1 ? " (×\(observation.count))" : ""))
        }
        if let path {
            console.out("trace: \(path)")
            if failed { console.out("replay: \(context.programName) replay \(shellQuoted(path))") }
        }
        console.json(
            ResultDocument(
                command: "run", verdict: failed ? "fail" : unheld ? "inconclusive" : "pass", exitCode: status,
                members: ResultDocument.run(
                    scenario: found.name, variant: plan.variant, strategy: strategy.description, seed: seed)
                    + [
                        .init("outcome", ResultDocument.outcome(result.verdict)),
                        .init("steps", .int(Int64(result.steps))), .init("events", .unsigned(result.eventCount)),
                        .init("decisions", .int(Int64(result.tape.count))),
                        .init("digest", .string(result.digest.description)), .init("trace", .optional(path)),
                        .init("findings", ResultDocument.findings(result.verdict, seed: seed, trace: path)),
                        .init("sometimes", ResultDocument.sometimes(result)),
                        .init("schedule", .string(Digest(value: result.scheduleDigest).description)),
                        .init(
                            "uncontrolled",
                            .array(
                                result.uncontrolled.map {
                                    .object([
                                        "kind": .string($0.kind.rawValue), "detail": .string($0.detail),
                                        "site": .string($0.site), "count": .int(Int64($0.count)),
                                    ])
                                })),
                    ]
            ).text)
        return status
    }

    /// The plan of a run whose child trapped: probed here when the fifo run does not trap (recorded in
    /// a child first to know), else with a step estimate of 1 — the trap may have been in that probe,
    /// and a run planned without it is still one the trace header describes and replays.
    func crashedPlan(_ found: Scenario) throws(CommandFailure) -> RunPlan {
        let (chosen, noise, carriers) = (request.variant, request.noise, request.carriers)
        let probe = try? DeterminismCheck.temporaryTracePath("probe")
        defer { if let probe { unlink(probe) } }
        let fifo = probe.flatMap { probe in
            try? IsolatedRecording(
                scenario: found.name, variant: chosen, strategy: StrategySpec.plainOrder.description, noise: noise,
                estimatedSteps: 1, carriers: carriers
            ).record(seed: 0, to: probe)
        }
        // Not recorded (no usable $TMPDIR): probed here, as before.
        var plan =
            fifo?.crashed == true
            ? RunPlan(scenario: found, variant: chosen, strategy: strategy, estimatedSteps: 1, noise: noise)
            : RunPlan(scenario: found, variant: chosen, strategy: strategy, noise: noise, carriers: carriers)
        plan.carriers = carriers
        return plan
    }

    /// The run trapped in its child: records it again in a child that checkpoints every record,
    /// seals the trace up to the trap, and prints the crash with its trace and replay command.
    func reportCrash(plan: RunPlan, context: CommandContext) throws(CommandFailure) -> Int32 {
        let (seed, out) = (request.seed, request.out)
        let console = context.console
        let wanted = out ?? "\(request.failureDir)/\(plan.scenario.name)-\(plan.variant)-seed\(seed).simtrace"
        let recording = IsolatedRecording(
            scenario: plan.scenario.name, variant: plan.variant, strategy: strategy.description, noise: plan.noise,
            estimatedSteps: plan.estimatedSteps, carriers: plan.carriers)
        let recorded: IsolatedRecording.Outcome
        let path: String
        let title = "\(plan.scenario.name)/\(plan.variant) seed \(seed) \(strategy)"
        do {
            // As for a failing run: a write error never loses the crash nor turns its 1 into 73.
            (recorded, path) = try FindingStore(console: console).save(to: wanted) {
                (target: String) throws(CommandFailure) -> IsolatedRecording.Outcome in
                try recording.record(seed: seed, to: target)
            }
        } catch where error.kind == .cannotWrite {
            console.verdict("\(title): CRASH — the run trapped in its child process")
            console.err("\(context.programName): \(error.message); the trace is not saved")
            console.json(
                ResultDocument(
                    command: "run", verdict: "fail", exitCode: ExitStatus.failure,
                    members: ResultDocument.run(
                        scenario: plan.scenario.name, variant: plan.variant, strategy: strategy.description, seed: seed)
                        + [.init("trace", .null), .init("error", .string(error.message))]
                ).text)
            return ExitStatus.failure
        }
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

/// `simrun _run`: runs and prints one schedule of `simrun run` for the parent that parsed the
/// command line, so that a model that traps ends this child and not the command. What to run is one
/// `RunRequest` (SimEngine) on stdin; the output goes straight to the parent's stdout and stderr.
/// Hidden: only `simrun run` runs it.
struct RunChildCommand: CatalogCommand, CommandChildCommand {
    static let configuration = CommandConfiguration(
        commandName: name, abstract: "Run one schedule for `simrun run` (internal).", shouldDisplay: false)

    /// The subcommand's name, as the parent starts it.
    static let name = "_run"
    /// Errors name `run`.
    static let parentCommand = "run"

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        // Stops on Ctrl-C as `run` does (`SimRun.main` leaves that to the parent of `_` children).
        // The style first: from the moment it handles a signal, this child prints the `--json`
        // document of an interruption itself; killed by one before, its parent prints it.
        let request = try RunRequest.read(from: 0)
        request.output.apply(to: context.console)
        Interruption.installImmediate()
        let found = try context.catalog.scenario(named: request.scenario)
        return try ScheduleRun(request: request, strategy: try request.strategySpec()).execute(found, context: context)
    }
}

/// A hidden child that does a visible command's work and prints for it (`_run`, `_explain`): it
/// stops on Ctrl-C as that command would, and its errors name that command.
protocol CommandChildCommand: CatalogCommand {
    /// The command whose work the child does (`run`), named in `--json` error documents.
    static var parentCommand: String { get }
}

extension CommandOutput {
    /// Sets the console's styles as `OutputOptions.apply` does for the parent's options.
    func apply(to console: Console) {
        OutputOptions.apply(json: json, quiet: quiet, progress: progress, fullNames: fullNames, to: console)
    }
}
