import SimCore
import SimEngine
import SimTrace

/// The parts of `fuzz` that keep a campaign alive and honest: worker processes (a trap is a finding),
/// Ctrl-C (stop, report what ran), and a re-run of every finding in a new process before it is
/// reported (a run that does not replay identically is nondeterministic).
extension FuzzCommand {
    /// Runs the campaign: in worker processes, or in process for `dfs` (one tree walk, one thread) and
    /// for the learning strategies (surw, nsurw, rff, coverage, portfolio: one strategy learning from
    /// run to run, seeds in order).
    func runCampaign(plan: RunPlan, configuration: Fuzzer.Configuration, console: Console)
        throws(CommandFailure) -> CampaignOutcome
    {
        Interruption.install()
        // On a terminal a live line; off a terminal nothing, or with --progress a line every 10 s.
        let progress: @Sendable (Int, Int, Int, Double) -> Void = { runs, failures, distinct, elapsed in
            let rate = elapsed > 0 ? Int(Double(runs) / elapsed) : 0
            console.progress("  \(runs) schedules  \(rate)/s  \(failures) failures  \(distinct) distinct")
        }
        // dfs walks one tree on one thread, and the learning strategies learn from run to run on one thread;
        // without process isolation (the command tree hosted by
        // another program) the campaign runs on threads in this process, where a trap would end it.
        let executor: any CampaignExecutor =
            !plan.strategy.campaignShape.isIndependent || !ChildProcess.isAvailable
            ? Fuzzer(plan: plan, configuration: configuration)
            : FuzzSupervisor(plan: plan, strategy: strategy.description, configuration: configuration)
        return try executor.runCampaign(progress: progress)
    }

    /// Records a crash in a child (checkpointing every record), seals the trace up to the trap, checks
    /// that it crashes the same way again, and prints it with its replay command; where it was saved.
    func reportCrash(_ crash: Fuzzer.Crash, number: Int, plan: RunPlan, context: CommandContext)
        throws(CommandFailure) -> String
    {
        let console = context.console
        console.out("CRASH at seed \(crash.seed): \(crash.message)")
        let suffix = number == 0 ? "" : "-\(number + 1)"
        let wanted = "\(out)/" + findingFileName(plan.scenario.name, plan.variant, oracle: "crashed", suffix: suffix)
        let recording = IsolatedRecording(
            scenario: plan.scenario.name, variant: plan.variant, strategy: strategy.description, noise: plan.noise,
            prefix: plan.prefix.flatMap { prefix in prefix.source.map { ($0, prefix.keep) } },
            estimatedSteps: plan.estimatedSteps, carriers: plan.carriers)
        let identity = FindingStore.Identity(
            scenario: plan.scenario.name, variant: plan.variant, strategy: strategy.description, seed: crash.seed)
        let (recorded, path) = try FindingStore(console: console).save(to: wanted, identity: identity) {
            (target: String) throws(CommandFailure) -> IsolatedRecording.Outcome in
            try recording.record(seed: crash.seed, to: target)
        }
        // Saved: a failing check after this is said, and the trace lines are still printed.
        do throws(CommandFailure) {
            var recorded = recorded
            // A crash shrinks too: each candidate schedule runs in a child of its own (CrashShrink).
            // Not after Ctrl-C: an interrupted campaign saves its findings unshrunk.
            if !noShrink, !Interruption.isRequested, recorded.crashed, ChildProcess.isAvailable {
                let input = try TraceInput(path: path)
                if let footer = input.footer,
                    let report = try CrashShrink.shrink(input, footer: footer, plan: plan, to: path)
                {
                    console.out("  " + report.line)
                    recorded.eventCount = report.after.events
                    recorded.verdict = report.verdict
                }
            }
            let lines = try recorded.crashLines(path: path) {
                "seed \(crash.seed) crashed in a worker but ran to \($0) when re-run"
            }
            for line in lines { console.out(line) }
            if crash.occurrences > 1 { console.out("  \(crash.occurrences) runs crashed this way") }
            try checkReplay(of: path, plan: plan, console: console)
        } catch {
            console.err("\(context.programName): seed \(crash.seed): \(error.message) (the trace is saved as found)")
        }
        console.out("  trace:  \(path)")
        console.out("  replay: \(context.programName) replay \(shellQuoted(path))")
        return path
    }

    /// Replays a saved finding once in a new process before it is reported; says so when it differs.
    func checkReplay(of path: String, plan: RunPlan, console: Console) throws(CommandFailure) {
        guard ChildProcess.isAvailable else { return try checkReplayInProcess(of: path, plan: plan, console: console) }
        let check = try DeterminismCheck.replayInChild(trace: path)
        guard let divergence = check.divergence else { return }
        console.out("  NONDETERMINISTIC: replaying the saved trace in a new process gave different events")
        for line in divergence { console.out("  " + line) }
    }

    /// Shrinks a saved trace in place, in a child process (`simrun shrink`): when a candidate schedule
    /// traps, the child dies and the trace stays as found. Returns the shrunk trace's footer.
    func shrinkInChild(_ path: String, plan: RunPlan, console: Console) throws(CommandFailure) -> TraceFooter? {
        guard ChildProcess.isAvailable else { return try shrinkInProcess(path, plan: plan, console: console) }
        let output = try ChildProcess.run(["_shrink", path])
        guard output.termination == .exited(0) else {
            let why = ChildProcess.trapMessage(in: output.stderr) ?? output.termination.description
            console.out("  not shrunk: the shrinking process stopped (\(why)); the trace is saved as found")
            return nil
        }
        for record in ChildRecord.records(in: output.stdout) {
            switch record {
            case .shrunk(let report): console.out("  " + report.line)
            case .failure(_, let message): console.out("  not shrunk: \(message); the trace is saved as found")
            case .notReproduced, .partial: break
            }
        }
        return try TraceInput(path: path).footer
    }
}

extension FuzzCommand {
    /// Without process isolation: replays the saved trace here, comparing every event.
    func checkReplayInProcess(of path: String, plan: RunPlan, console: Console) throws(CommandFailure) {
        let input = try TraceInput(path: path)
        guard let divergence = try TraceReplayer(input: input, plan: plan).replayComparing().divergence else { return }
        console.out("  NONDETERMINISTIC: replaying the saved trace gave different events")
        for line in divergence { console.out("  " + line) }
    }

    /// Without process isolation: shrinks the saved trace here and rewrites it in place.
    func shrinkInProcess(_ path: String, plan: RunPlan, console: Console) throws(CommandFailure) -> TraceFooter? {
        let input = try TraceInput(path: path)
        guard let footer = input.footer else { return nil }
        guard let shrunk = try TraceShrink.shrink(input, footer: footer, plan: plan, to: path) else {
            return footer
        }
        console.out("  " + shrunk.line)
        return try TraceInput(path: path).footer
    }
}
