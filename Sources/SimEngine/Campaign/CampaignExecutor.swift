import SimCore

/// Something that runs a whole campaign: threads in this process (`Fuzzer`) or child processes
/// (`FuzzSupervisor`: worker processes, or one child for an in-order campaign, which runs `Fuzzer`).
/// Every campaign runs the one loop, `CampaignWorker`, against a `CampaignBoard` and is assembled
/// with `CampaignOutcome.assemble`, so they find the same seeds.
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

    /// A failing seed run again for what a worker does not keep: its verdict, tape and steps, its
    /// digest (to compare with the worker's), and the trace it was recorded in (in a child).
    package struct Rerun {
        package var verdict: Verdict
        package var tape: Tape
        package var steps: Int
        package var digest: UInt64
        package var trace: String?

        package init(verdict: Verdict, tape: Tape, steps: Int, digest: UInt64, trace: String? = nil) {
            self.verdict = verdict
            self.tape = tape
            self.steps = steps
            self.digest = digest
            self.trace = trace
        }
    }

    /// Assembles the outcome from what the workers tallied: applies the first-failure rule (unless
    /// `keepGoing`), then runs each remaining failure's lowest seed again with `rerun` for its tape
    /// and verdict (a worker keeps only a digest), noting any seed whose re-run differs. The re-run
    /// is the user's code, run by the caller where it runs code (here, or in a child): a step of its
    /// own, never hidden in an initializer.
    package static func assemble<Failure: Error>(
        tally: CampaignTally, goals: [String], keepGoing: Bool, seconds: Double, interrupted: Bool,
        rerun: (UInt64) throws(Failure) -> Rerun
    ) throws(Failure) -> CampaignOutcome {
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
                let again = try rerun(entry.seed)
                if again.digest != digest {
                    nondeterministic.insert(entry.seed)
                    workerDigests[entry.seed] = digest
                }
                findings.append(
                    Fuzzer.Finding(
                        signature: FailureSignature(again.verdict), seed: entry.seed, verdict: again.verdict,
                        tape: again.tape, steps: again.steps, occurrences: entry.occurrences, trace: again.trace))
            }
        }
        let report = Fuzzer.Report(
            schedules: tally.runs, failures: table.failingRuns, findings: findings, goals: goals,
            goalCounts: Array(tally.goalCounts.prefix(goals.count)), seconds: seconds, exhausted: false,
            explored: tally.explored)
        var outcome = CampaignOutcome(
            report: report, crashes: crashes, interrupted: interrupted, nondeterministic: nondeterministic)
        outcome.workerDigests = workerDigests
        outcome.lockOrder = tally.lockOrder
        return outcome
    }
}
