import SimCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs an in-order campaign (one strategy object from run to run, which cannot be split over
/// worker processes) in one child, `simrun _campaign`, told what to run by one `InOrderRequest` and
/// answering with one `InOrderOutcome`. When a run traps, the child dies: the run marker says which
/// run it was, and the outcome is that one crash (`crashedAtRun`), which `FindingCampaign` records
/// again by re-running the campaign up to it (`RecordRequest.inOrder`).
package struct InOrderSupervisor: CampaignExecutor {
    package let plan: RunPlan
    package let configuration: Fuzzer.Configuration

    /// An in-order child runs as long as the campaign does (a year: no limit in practice).
    package static let noTimeout: Double = 365 * 24 * 3600

    /// The outcome of a campaign interrupted before its first run: no schedule, the summary says so.
    private static func nothingRan(since start: ContinuousClock.Instant) -> CampaignOutcome {
        let report = Fuzzer.Report(
            schedules: 0, failures: 0, findings: [], goals: [], goalCounts: [],
            seconds: (ContinuousClock.now - start).seconds, exhausted: false)
        return CampaignOutcome(report: report, crashes: [], interrupted: true, nondeterministic: [])
    }

    package init(plan: RunPlan, configuration: Fuzzer.Configuration) {
        self.plan = plan
        self.configuration = configuration
    }

    /// Progress is not heard from the child (it answers once, at the end).
    package func runCampaign(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void) throws(SimEngineError)
        -> CampaignOutcome
    {
        // Stopped before it started (a signal while the campaign was planned): nothing ran.
        if Interruption.isRequested { return Self.nothingRan(since: .now) }
        let directory = try TemporaryDirectory.makeDirectory(prefix: "simrun-in-order")
        defer { TemporaryDirectory.removeDirectory(directory) }
        let marker = "\(directory)/marker"
        let findings = "\(directory)/findings"
        guard mkdir(findings, 0o700) == 0 else {
            throw SimEngineError(.cannotWrite, "cannot create \(findings): \(String(cString: strerror(errno)))")
        }
        let request = InOrderRequest(plan: plan, configuration: configuration, marker: marker, findings: findings)
        let start = ContinuousClock.now
        let output = try ChildProcess.run(
            ["_campaign"], input: Array(request.text.utf8), timeoutSeconds: Self.noTimeout,
            forwardingInterruption: true)
        switch output.termination {
        case .exited(0):
            // The findings' traces are read (for their tapes) before the directory goes.
            return try InOrderOutcome(childOutput: output.stdout).outcome
        case .signaled where Interruption.isRequested:
            // The forwarded signal reached the child before it could stop and report (it polls only
            // once it runs): it had run nothing yet.
            return Self.nothingRan(since: start)
        case .signaled:
            guard let (run, seed) = RunMarker.read(path: marker) else {
                throw SimEngineError(
                    .failed, "the campaign's process was \(output.termination) before its first run")
            }
            let message = ChildProcess.trapMessage(in: output.stderr) ?? "the model \(output.termination)"
            let report = Fuzzer.Report(
                schedules: run + 1, failures: 1, findings: [], goals: [], goalCounts: [], seconds: (ContinuousClock.now - start).seconds, exhausted: false)
            var outcome = CampaignOutcome(
                report: report, crashes: [Fuzzer.Crash(seed: seed, message: message, occurrences: 1)],
                interrupted: false, nondeterministic: [])
            outcome.crashedAtRun = run
            return outcome
        case .exited:
            // The child says what failed in its failure record (an unknown scenario, a write error).
            let failure = ChildRecord.records(in: output.stdout).lazy.compactMap {
                record -> SimEngineError? in
                if case .failure(let kind, let message) = record { return SimEngineError(kind, message) }
                return nil
            }.first
            throw failure
                ?? SimEngineError(
                    .failed,
                    "the in-order campaign's process \(output.termination): \(output.stderr.split(separator: "\n").first ?? "")"
                )
        }
    }
}
