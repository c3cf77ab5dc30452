import SimCore
import SimEngine
import SimTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// In-order campaigns (`surw`, `coverage`, `dfs`: one strategy object from run to run) cannot be
/// split over worker processes. The whole campaign runs in one child with this process's output;
/// when a run traps, the child dies, and this process records that run again (a child re-runs the
/// campaign up to it, learning the same, and records it through a checkpointing sink), seals the
/// trace up to the trap and reports the crash as a finding. The campaign ends there: what the
/// strategy learned died with the child.
extension FuzzCommand {
    func runGuarded(plan: RunPlan, context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        let marker = DeterminismCheck.temporaryTracePath("marker")
        defer { unlink(marker) }
        let arguments = Array(CommandLine.arguments.dropFirst())
        let termination = try ChildProcess.runInheritingOutput(
            arguments + ["--guarded", "--guard-marker", marker], timeoutSeconds: GuardedRun.noTimeout,
            forwardingInterruption: true)
        guard case .signaled(let signal) = termination, !Interruption.isRequested else {
            if Interruption.isRequested, case .signaled = termination { return ExitStatus.interrupted }
            if case .exited(let status) = termination { return status }
            return ExitStatus.failure
        }
        guard let (run, seed) = RunMarker.read(path: marker) else {
            throw CommandFailure(
                ExitStatus.failure, "the campaign's process was killed by signal \(signal) before its first run")
        }
        let wanted = "\(out)/" + findingFileName(plan.scenario.name, plan.variant, oracle: "crashed", suffix: "")
        let (recorded, path) = try FindingStore(console: console).save(to: wanted) {
            (target: String) throws(CommandFailure) -> IsolatedRecording.Outcome in
            // The re-run goes through every run before the crash again: as long as the campaign took.
            try IsolatedRecording.record(
                arguments + ["--guarded", "--guard-record", "\(run):\(seed):\(target)"], to: target,
                timeoutSeconds: GuardedRun.noTimeout)
        }
        return try reportCampaignCrash(
            recorded, path: path, seed: seed, schedules: run + 1, plan: plan, context: context,
            headline: "CRASH at seed \(seed) (run \(run + 1) of the campaign)",
            reRunDiffers: { "run \(run + 1) trapped in the campaign but ran to \($0) when re-run" },
            summary:
                "the campaign ended at its crash, run \(run + 1): \(strategy.kind) runs in one process, which the trap ended (findings before it in that process were not kept)",
            quietReason: "a crash at seed \(seed)")
    }

    /// In the re-run child: runs the campaign up to run `RUN` and records it into `PATH` (header
    /// seed `SEED`), sending the `partial` record first so that the parent can seal it if it traps.
    func recordGuardedRun(_ spec: String, plan: RunPlan, configuration: Fuzzer.Configuration) throws(CommandFailure)
        -> Int32
    {
        let parts = spec.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count == 3, let run = Int(parts[0]), let seed = UInt64(parts[1]) else {
            throw CommandFailure(ExitStatus.usage, "--guard-record: expected RUN:SEED:PATH, got '\(spec)'")
        }
        let path = parts[2]
        let header = TraceHeader(
            toolVersion: SimRunVersion.current, scenario: plan.scenario.name, variant: plan.variant, seed: seed,
            strategy: strategy.description, options: plan.options.map { TraceOption($0.0, $0.1) },
            build: BuildIdentity.current)
        let writer: TraceWriter
        do {
            writer = try TraceWriter(path: path, header: header)
        } catch {
            throw CommandFailure(ExitStatus.cannotWrite, "cannot write \(path): \(error)")
        }
        // Whatever the output options say: this line is for the parent.
        Console().out(ChildRecord.partial(writer.temporaryPath ?? path).text)
        let recording = InOrderRecording(run: run, sink: CheckpointingSink(writer: writer))
        var configuration = configuration
        configuration.recording = recording
        _ = Fuzzer(plan: plan, configuration: configuration).run()
        guard let result = recording.result, recording.seed == seed else {
            writer.abandon()
            throw CommandFailure(ExitStatus.failure, "the campaign re-run did not reach run \(run + 1) (seed \(seed))")
        }
        do {
            try writer.finish(Recorder.footer(for: result))
        } catch {
            writer.abandon()
            throw CommandFailure(ExitStatus.cannotWrite, "cannot write \(path): \(error)")
        }
        return ExitStatus.ok
    }
}

/// Planning a campaign runs the `fifo` schedule once (the step estimate `pct` and `delay` spread
/// their change points over, the coverage goals). That run is the model's code like any other: it
/// runs first in a child, and when it traps, the campaign's finding is that crash, with its trace.
extension FuzzCommand {
    /// Records the fifo schedule (seed 0) in a child; nil when it did not trap (the campaign goes on
    /// and plans in this process), else the exit status after reporting the crash as the finding.
    func fuzzFifoCrash(plan: RunPlan, context: CommandContext) throws(CommandFailure) -> Int32? {
        let console = context.console
        let recording = IsolatedRecording(
            scenario: plan.scenario.name, variant: plan.variant, strategy: "fifo", noise: plan.noise,
            estimatedSteps: 1, carriers: plan.carriers)
        let probe = DeterminismCheck.temporaryTracePath("probe")
        defer { unlink(probe) }
        // A probe that cannot be recorded (no usable $TMPDIR) is no finding: the plan probes here, as
        // it always did, and the findings' own traces say what they can.
        guard (try? recording.record(seed: 0, to: probe))?.crashed == true else { return nil }
        let wanted = "\(out)/" + findingFileName(plan.scenario.name, plan.variant, oracle: "crashed", suffix: "")
        let identity = FindingStore.Identity(
            scenario: plan.scenario.name, variant: plan.variant, strategy: "fifo", seed: 0)
        let (recorded, path) = try FindingStore(console: console).save(to: wanted, identity: identity) {
            (target: String) throws(CommandFailure) -> IsolatedRecording.Outcome in
            try recording.record(seed: 0, to: target)
        }
        return try reportCampaignCrash(
            recorded, path: path, seed: 0, schedules: 1, plan: plan, context: context,
            headline: "CRASH on the fifo schedule (seed 0), which plans the campaign before its first run",
            reRunDiffers: { "the fifo schedule trapped once but ran to \($0) when recorded again" },
            summary:
                "the campaign did not start: the model traps on the fifo schedule, the plain order every \(strategy.kind) campaign is planned from; the crash is its finding",
            quietReason: "a crash on the fifo schedule")
    }

    /// Presents a campaign that ended in one crash (in-order campaigns, or the fifo probe that plans
    /// one): the headline, the crash lines, the trace and its replay command, the summary, then
    /// `--quiet`'s verdict line and `--json`'s document. Returns 1.
    private func reportCampaignCrash(
        _ recorded: IsolatedRecording.Outcome, path: String, seed: UInt64, schedules: Int, plan: RunPlan,
        context: CommandContext, headline: String, reRunDiffers: (String) -> String, summary: String,
        quietReason: String
    ) throws(CommandFailure) -> Int32 {
        let console = context.console
        console.out("\(headline): \(recorded.verdict.message)")
        for line in try recorded.crashLines(path: path, nondeterministic: reRunDiffers) { console.out(line) }
        console.out("  trace:  \(path)")
        console.out("  replay: \(context.programName) replay \(shellQuoted(path))")
        console.out("summary: \(summary)")
        if console.outputStyle == .quiet {
            console.verdict("fuzz \(plan.scenario.name)/\(plan.variant): FAIL — \(quietReason); trace \(path)")
        }
        console.json(
            ResultDocument(
                command: "fuzz", verdict: "fail", exitCode: ExitStatus.failure,
                members: ResultDocument.run(
                    scenario: plan.scenario.name, variant: plan.variant, strategy: strategy.description, seed: nil)
                    + [
                        .init("schedules", .int(Int64(schedules))),
                        .init("findings", ResultDocument.findings(recorded.verdict, seed: seed, trace: path)),
                    ]
            ).text)
        return ExitStatus.failure
    }
}
