import SimCore
import SimEngine
import SimTrace

/// How `fuzz` shows a campaign: the live progress line while schedules run, then each finding as
/// the engine's `FindingCampaign` hands it over (saved, shrunk and re-checked there). Nothing here
/// decides anything about a finding; it only prints what the engine found.
final class FindingPresenter: FindingCampaignObserver, @unchecked Sendable {
    // @unchecked: `progress` only touches the Console (Sendable); the rest is called on the thread
    // that runs the campaign, one finding after another.
    private let console: Console
    private let programName: String
    private let plan: RunPlan
    private let showTimelines: Bool
    private var shownTimeline = false
    /// seed → saved trace, for the JSON document.
    private(set) var traces: [UInt64: String] = [:]

    init(command: FuzzCommand, plan: RunPlan, context: CommandContext) {
        console = context.console
        programName = context.programName
        self.plan = plan
        showTimelines = !command.noShow
    }

    func progress(_ progress: CampaignProgress) {
        // On a terminal a live line; off a terminal nothing, or with --progress a line every 10 s.
        let rate = progress.seconds > 0 ? Int(Double(progress.schedules) / progress.seconds) : 0
        console.progress(
            "  \(progress.schedules) schedules  \(rate)/s  \(progress.failures) failures  \(progress.distinct) distinct"
        )
    }

    func schedulesFinished(_ report: Fuzzer.Report) { console.endProgress() }

    func saved(_ finding: SavedFinding) {
        switch finding.kind {
        case .nondeterministic: presentNondeterministic(finding)
        case .failure:
            presentFailure(finding)
            shownTimeline = true
        case .crash: presentCrash(finding)
        }
    }

    /// Two lock classes taken in both orders: what each order took where, the traces, and what the
    /// search aimed at the inverted schedule found.
    func potentialDeadlock(_ potential: PotentialDeadlock) {
        console.out("POTENTIAL DEADLOCK: \(potential.description)")
        for trace in potential.traces { console.out("  trace:  \(trace)") }
        if let seed = potential.aimedDeadlockSeed {
            console.out("  the search aimed at the inverted schedule deadlocked at its seed \(seed) (above)")
        } else if potential.aimedSchedules > 0 {
            console.out(
                "  the search aimed at the inverted schedule ran \(potential.aimedSchedules) schedules without a deadlock: the orders stand as evidence")
        }
        if let problem = potential.problem { console.err("\(programName): \(problem)") }
    }

    /// A finding stands (exit 1) even when saving, shrinking or re-checking it failed: the failure
    /// is said on stderr, never turned into the exit code of a write error.
    private func sayProblem(_ finding: SavedFinding) {
        guard let problem = finding.problem else { return }
        console.err(
            "\(programName): seed \(finding.seed): \(problem.message)"
                + (finding.path != nil && finding.kind != .nondeterministic ? " (the trace is saved as found)" : ""))
    }

    private func presentFailure(_ finding: SavedFinding) {
        console.out("FAIL at seed \(finding.seed): \(finding.foundVerdict)")
        for warning in finding.warnings { console.err(warning) }
        guard let path = finding.path else { return sayProblem(finding) }
        presentShrink(finding.shrink)
        if plan.scenario.callSpace != nil && finding.savedDiffers {
            // An object check shrinks its calls too: the table found is not the table saved.
            console.out("  shrunk to: \(finding.verdict)")
        }
        if !FailureSignature(finding.foundVerdict).matches(finding.verdict) {
            console.out(
                "  warning: the saved schedule ended with \(finding.verdict) — the scenario may not be deterministic")
        }
        if showTimelines && !shownTimeline && finding.eventCount <= 400 && console.outputStyle == .human {
            do {
                try Timeline(reader: try TraceReader(path: path), limit: 400, fullTaskNames: console.fullTaskNames).write {
                    console.out($0)
                }
            } catch {
                console.err("\(programName): seed \(finding.seed): \(TraceInput.failure(error).message)")
            }
        }
        presentReplay(finding.replay)
        sayProblem(finding)
        traces[finding.seed] = path
        presentTraceLines(path)
        if let hint = plan.scenario.fixHintLine(
            for: plan.variant, replayCommand: "\(programName) replay \(shellQuoted(path))")
        {
            console.out(hint)
        }
    }

    private func presentCrash(_ finding: SavedFinding) {
        let campaignRun = finding.crashedAtRun.map { " (run \($0 + 1) of the campaign)" } ?? ""
        console.out("CRASH at seed \(finding.seed)\(campaignRun): \(finding.foundVerdict.message)")
        for warning in finding.warnings { console.err(warning) }
        guard let path = finding.path else { return sayProblem(finding) }
        presentShrink(finding.shrink)
        do throws(CommandFailure) {
            let lines = try finding.crashLines(path: path) { verdict in
                finding.crashedAtRun.map { "run \($0 + 1) trapped in the campaign but ran to \(verdict) when re-run" }
                    ?? "seed \(finding.seed) crashed in a worker but ran to \(verdict) when re-run"
            }
            for line in lines { console.out(line) }
        } catch {
            console.err("\(programName): seed \(finding.seed): \(error.message) (the trace is saved as found)")
        }
        if finding.occurrences > 1 { console.out("  \(finding.occurrences) runs crashed this way") }
        presentReplay(finding.replay)
        sayProblem(finding)
        traces[finding.seed] = path
        presentTraceLines(path)
    }

    private func presentNondeterministic(_ finding: SavedFinding) {
        console.out("NONDETERMINISTIC: seed \(finding.seed) ran differently in two processes")
        guard let (workerDigest, evidence) = finding.nondeterminism else { return sayProblem(finding) }
        let worker =
            evidence.outcome("worker").map { FuzzCommand.describe($0.verdict, $0.digest.value) }
            ?? "FAIL (digest \(FuzzCommand.hex(workerDigest)); no recording here reproduced it in \(evidence.recordings))"
        console.out("  worker process: \(worker)")
        console.out(
            "  re-run here:    \(FuzzCommand.describe(evidence.outcome("rerun")?.verdict ?? finding.foundVerdict, nil))"
        )
        let paths = FuzzCommand.present(evidence, console: console)
        if let first = paths.first { traces[finding.seed] = first }
    }

    private func presentShrink(_ shrink: SavedFinding.Shrink?) {
        switch shrink {
        case .shrunk(let report)?: console.out("  " + report.line)
        case .notShrunk(let why)?: console.out("  not shrunk: \(why); the trace is saved as found")
        case .notReproduced?, nil: break
        }
    }

    private func presentReplay(_ check: SavedFinding.ReplayCheck?) {
        guard case .differed(let lines, let inNewProcess)? = check else { return }
        console.out(
            "  NONDETERMINISTIC: replaying the saved trace\(inNewProcess ? " in a new process" : "") gave different events"
        )
        for line in lines { console.out("  " + line) }
    }

    private func presentTraceLines(_ path: String) {
        console.out("  trace:  \(path)")
        console.out("  replay: \(programName) replay \(shellQuoted(path))")
    }
}
