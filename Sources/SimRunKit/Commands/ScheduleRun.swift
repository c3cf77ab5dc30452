import ArgumentParser
import SimCore
import SimEngine

/// One schedule of `simrun run`, from the options the parent parsed (``Request``): run and printed
/// by the child (`RerunCommand`), or by the command itself when there is no child; a run whose child
/// trapped is recorded again and reported by the parent (`reportCrash`).
struct ScheduleRun {
    /// What `run` asks of the child it runs its schedule in: the options as the parent parsed them,
    /// typed (the strategy crosses as a `StrategySpec`, never its text).
    struct Request: Sendable, Equatable, Codable {
        /// The scenario to run.
        var scenario: String
        /// The variant the parent chose (the scenario's default already resolved).
        var variant: String
        /// The seed of the schedule.
        var seed: UInt64
        /// The strategy.
        var strategy: StrategySpec
        /// `--out`: the trace is always written there.
        var out: String?
        /// `--failure-dir`: where a failing run's trace goes without `--out`.
        var failureDir: String
        /// Noise lanes added to the run.
        var noise: Int
        /// Where the run's jobs run (`--preempt`).
        var carriers: CarrierMode
        /// The console's styles (`--json`, `--quiet`, `--progress`).
        var output: CommandOutput

        /// The plan's descriptor before it is planned (its step estimate is learned by planning).
        var unplanned: RunPlan.Descriptor {
            RunPlan.Descriptor(
                scenario: scenario, variant: variant, strategy: strategy, estimatedSteps: 1, noise: noise,
                carriers: carriers)
        }
    }

    /// The options of the run.
    let request: Request
    /// The request's strategy.
    var strategy: StrategySpec { request.strategy }

    /// Runs the schedule here: its step estimate comes from its fifo run, which may trap, so this
    /// runs in the command's child unless there is none.
    func execute(context: CommandContext) throws(CommandFailure) -> Int32 {
        let found = try context.catalog.scenario(named: request.scenario)
        let (seed, out) = (request.seed, request.out)
        let plan = RunPlan.probed(
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

    /// The plan of a run whose child trapped, planned in a child: when its fifo run traps too (the
    /// trap may have been there), with a step estimate of 1 — a run planned without it is still
    /// one the trace header describes and replays.
    func crashedPlan(context: CommandContext) throws(CommandFailure) -> RunPlan {
        switch try context.isolation.plan(request.unplanned, in: context.catalog) {
        case .planned(let plan): return plan
        case .trapped: return try RunPlan(request.unplanned, in: context.catalog)
        }
    }

    /// The run trapped in its child: records it again in a child that checkpoints every record,
    /// seals the trace up to the trap, and prints the crash with its trace and replay command.
    func reportCrash(plan: RunPlan, context: CommandContext) throws(CommandFailure) -> Int32 {
        let (seed, out) = (request.seed, request.out)
        let console = context.console
        let wanted = out ?? "\(request.failureDir)/\(plan.scenario.name)-\(plan.variant)-seed\(seed).simtrace"
        let recording = IsolatedRecording(
            plan: try plan.descriptor(), launcher: try context.isolation.launcher(for: "recording a crash"))
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
