import SimCore
import SimTrace

/// An in-order campaign (one strategy object from run to run, which cannot be split over worker
/// processes) runs in one child (``ChildJob/inOrderCampaign(_:)``), answered by one `campaign`
/// record whose findings' tapes are traces the child wrote into `scratch`. When a run traps, the
/// child dies: the run marker says which run it was, and the outcome is that one crash
/// (`crashedAtRun`), which `FindingCampaign` records again by re-running the campaign up to it
/// (``ChildJob/Record/Schedule/inOrderRun(run:seeds:)``).
extension FuzzSupervisor {
    /// An in-order child runs as long as the campaign does (a year: no limit in practice).
    package static let noTimeout: Double = 365 * 24 * 3600

    /// The outcome of a campaign interrupted before its first run: no schedule, the summary says so.
    private static func nothingRan(since start: ContinuousClock.Instant) -> CampaignOutcome {
        let report = Fuzzer.Report(
            schedules: 0, failures: 0, findings: [], goals: [], goalCounts: [],
            seconds: (ContinuousClock.now - start).seconds, exhausted: false)
        return CampaignOutcome(report: report, crashes: [], interrupted: true, nondeterministic: [])
    }

    /// The campaign in one child; progress is not heard from it (it answers once, at the end).
    func runInOneChild() throws(SimEngineError) -> CampaignOutcome {
        // Stopped before it started (a signal while the campaign was planned): nothing ran.
        if launcher.cancellation.isRequested { return Self.nothingRan(since: .now) }
        let directory = "\(scratch)/in-order"
        try ensureDirectory(directory)
        let marker = "\(directory)/marker"
        let job = ChildJob.InOrderCampaign(
            plan: try plan.descriptor(), seeds: configuration.seeds,
            milliseconds: configuration.seconds.map { Int64($0 * 1000) }, keepGoing: configuration.keepGoing,
            marker: marker, findings: directory)
        let start = ContinuousClock.now
        let run = try launcher.run(.inOrderCampaign(job), timeoutSeconds: Self.noTimeout, passingCancellation: true)
        for case .campaign(let summary) in run.replies where run.termination == .exited(0) {
            return try CampaignOutcome(summary)
        }
        switch run.termination {
        case .signaled where run.cancelled:
            // The cancellation reached the child before it could stop and report (it polls only
            // once it runs): it had run nothing yet.
            return Self.nothingRan(since: start)
        case .signaled:
            guard let (number, seed) = RunMarker.read(path: marker) else {
                throw SimEngineError(.failed, "the campaign's process was \(run.termination) before its first run")
            }
            let message = run.trapMessage ?? "the model \(run.termination)"
            let report = Fuzzer.Report(
                schedules: number + 1, failures: 1, findings: [], goals: [], goalCounts: [],
                seconds: (ContinuousClock.now - start).seconds, exhausted: false)
            var outcome = CampaignOutcome(
                report: report, crashes: [Fuzzer.Crash(seed: seed, message: message, occurrences: 1)],
                interrupted: false, nondeterministic: [])
            outcome.crashedAtRun = number
            return outcome
        case .exited:
            // The child says what failed in its failure record (an unknown scenario, a write error).
            throw run.failure
                ?? SimEngineError(
                    .failed,
                    "the in-order campaign's process \(run.termination): \(run.stderr.split(separator: "\n").first ?? "")")
        }
    }
}

extension CampaignOutcome {
    /// The outcome an in-order campaign's child reported, each finding's tape read from its trace.
    init(_ summary: ChildReply.InOrderSummary) throws(SimEngineError) {
        var findings: [Fuzzer.Finding] = []
        for finding in summary.findings {
            findings.append(
                Fuzzer.Finding(
                    signature: FailureSignature(finding.verdict), seed: finding.seed, verdict: finding.verdict,
                    tape: try TraceInput(path: finding.trace).tape, steps: finding.steps,
                    occurrences: finding.occurrences, trace: finding.trace))
        }
        let report = Fuzzer.Report(
            schedules: summary.schedules, failures: summary.failures, findings: findings, goals: summary.goals,
            goalCounts: summary.goalCounts, seconds: summary.seconds, exhausted: summary.exhausted,
            exhaustedRounds: summary.exhaustedRounds, learning: summary.learning, explored: summary.explored.explored)
        self.init(report: report, crashes: [], interrupted: summary.interrupted, nondeterministic: [])
    }
}

extension ChildJob.InOrderCampaign {
    /// The child's work: runs the campaign on this thread, marking each run before it starts, writes
    /// each finding's trace (as found) into `findings`, and answers with the summary. `cancellation`
    /// (Ctrl-C passed on by the parent) stops the campaign, which still reports what ran.
    func perform(_ plan: RunPlan, cancellation: Cancellation) throws(SimEngineError) -> ChildReply {
        guard !plan.strategy.campaignShape.isIndependent else {
            throw .usage("child job: \(plan.strategy) runs its seeds independently, in worker processes")
        }
        var configuration = Fuzzer.Configuration(
            seeds: seeds, seconds: milliseconds.map { Double($0) / 1000 }, keepGoing: keepGoing)
        configuration.runMarker = try RunMarker(path: marker)
        configuration.cancellation = cancellation
        let outcome = Fuzzer(plan: plan, configuration: configuration).runCampaign(progress: { _, _, _, _ in })
        let report = outcome.report
        var found: [ChildReply.InOrderSummary.Finding] = []
        for (index, finding) in report.findings.enumerated() {
            let path = "\(findings)/finding-\(index).simtrace"
            _ = try Recorder.record(
                plan: plan, seed: finding.seed, tape: finding.tape, strategyName: plan.strategy.description, to: path)
            found.append(
                .init(
                    seed: finding.seed, verdict: finding.verdict, steps: finding.steps,
                    occurrences: finding.occurrences, trace: path))
        }
        return .campaign(
            .init(
                schedules: report.schedules, failures: report.failures, findings: found, goals: report.goals,
                goalCounts: report.goalCounts, seconds: report.seconds, exhausted: report.exhausted,
                exhaustedRounds: report.exhaustedRounds, learning: report.learning, interrupted: outcome.interrupted,
                explored: .init(report.explored)))
    }
}
