import SimCore

/// Something that runs a whole campaign: worker threads in this process (`Fuzzer`) or worker
/// processes (`FuzzSupervisor`). Both run `CampaignWorker` against a `CampaignBoard` and assemble
/// the outcome with `CampaignOutcome.init(tally:…)`, so they find the same seeds.
package protocol CampaignExecutor {
    /// Runs the campaign; `progress` gets (schedules, failing runs, distinct failures, seconds) now and then.
    func runCampaign(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void) throws(SimEngineError)
        -> CampaignOutcome
}

/// What a campaign found, as a command reports it.
package struct CampaignOutcome: Sendable {
    package var report: Fuzzer.Report
    /// Seeds whose run trapped (worker processes only), lowest seed first.
    package var crashes: [Fuzzer.Crash]
    /// Stopped early by Ctrl-C or SIGTERM: the report covers what ran.
    package var interrupted: Bool
    /// Seeds whose failure did not re-run the same here as in the worker that found it.
    package var nondeterministic: Set<UInt64>
    /// For each nondeterministic seed, the digest its worker saw (the re-run here saw another).
    package var workerDigests: [UInt64: UInt64] = [:]
    /// For an in-order campaign whose child trapped: the run (from 0) that trapped, which ended the
    /// campaign (its one crash; findings before it died with the child).
    package var crashedAtRun: Int?
    /// The lock orders the runs took (`--preempt`; not kept by in-order campaigns).
    package var lockOrder = LockOrderTable()

    package init(report: Fuzzer.Report, crashes: [Fuzzer.Crash], interrupted: Bool, nondeterministic: Set<UInt64>) {
        self.report = report
        self.crashes = crashes
        self.interrupted = interrupted
        self.nondeterministic = nondeterministic
    }

    /// Assembles the outcome from what the workers tallied: applies the first-failure rule (unless
    /// `keepGoing`), then re-runs each remaining failure's lowest seed here for its tape and verdict
    /// (a worker keeps only a digest), noting any seed whose re-run differs.
    package init(
        tally: CampaignTally, plan: RunPlan, goals: [String], keepGoing: Bool, seconds: Double, interrupted: Bool
    ) {
        let table = keepGoing ? tally.findings : tally.findings.keepingFirstFailure()
        var findings: [Fuzzer.Finding] = []
        var crashes: [Fuzzer.Crash] = []
        var nondeterministic: Set<UInt64> = []
        var workerDigests: [UInt64: UInt64] = [:]
        for entry in table.entries {
            switch entry.evidence {
            case .crashed(let message):
                crashes.append(Fuzzer.Crash(seed: entry.seed, message: message, occurrences: entry.occurrences))
            case .failed(let digest):
                let result = plan.run(seed: entry.seed, strategy: plan.makeStrategy())
                if result.digest.value != digest {
                    nondeterministic.insert(entry.seed)
                    workerDigests[entry.seed] = digest
                }
                findings.append(
                    Fuzzer.Finding(
                        signature: FailureSignature(result.verdict), seed: entry.seed, verdict: result.verdict,
                        tape: result.tape, steps: result.steps, occurrences: entry.occurrences))
            }
        }
        let report = Fuzzer.Report(
            schedules: tally.runs, failures: table.failingRuns, findings: findings, goals: goals,
            goalCounts: Array(tally.goalCounts.prefix(goals.count)), seconds: seconds, exhausted: false,
            explored: tally.explored)
        self.init(report: report, crashes: crashes, interrupted: interrupted, nondeterministic: nondeterministic)
        self.workerDigests = workerDigests
        self.lockOrder = tally.lockOrder
    }
}
