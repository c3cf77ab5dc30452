import SimCore

/// The shared state of one campaign as each of its workers sees it: the claim counter of the seed
/// space, the stop line, the interrupt flag, and what each worker ran and found.
///
/// Two boards, one protocol: `ThreadBoard` in this process's memory for worker threads, and
/// `WorkerBoard` in a mapped file for worker processes (a trapping model ends one process, and the
/// board still says which seed it was running). `CampaignWorker` runs the same loop on either.
package protocol CampaignBoard: AnyObject, Sendable {
    /// Claims the next chunk of seed indices for `worker` and remembers where it ends; nil when the
    /// index space is used up.
    func claimChunk(_ worker: Int) -> Range<UInt64>?
    /// The stop line: the lowest failing seed so far (`.max` while none).
    var stopSeed: UInt64 { get }
    /// Lowers the stop line to `seed` (`Atomic.lowerStopLine`).
    func lowerStopSeed(to seed: UInt64)
    /// True once the campaign was asked to stop early (Ctrl-C, SIGTERM).
    var isInterrupted: Bool { get }
    /// Notes the seed index `worker` is about to run (nil between runs).
    func setInFlight(_ worker: Int, _ index: UInt64?)
    /// Notes that `worker` is about to run `seed`, at index `index` (by default: in flight).
    func willRun(_ worker: Int, index: UInt64, seed: UInt64)
    /// Counts a finished run of `worker` (of `seed`): the coverage goals it reached, its schedule and
    /// what it saw but did not control.
    func addRun(_ worker: Int, seed: UInt64, _ result: RunResult)
    /// Records a failing run of `worker` at seed index `index` (`signature` is `FailureSignature.id`).
    func addFailure(_ worker: Int, index: UInt64, seed: UInt64, signature: UInt64, digest: UInt64)
    /// Records the failing run `result` of `worker` (by default: its signature and digest).
    func addFailure(_ worker: Int, index: UInt64, seed: UInt64, _ result: RunResult)
    /// Records the lock order the run of `seed` took (`--preempt`; called only when it took one).
    func addLockOrder(_ worker: Int, seed: UInt64, _ edges: [LockOrderEdge])
    /// What every worker ran and found so far.
    func tally() -> CampaignTally
}

extension CampaignBoard {
    /// The run goes in flight: a board that keeps more (a run marker) says so itself.
    package func willRun(_ worker: Int, index: UInt64, seed: UInt64) { setInFlight(worker, index) }

    /// A worker keeps a failure's signature and digest; re-running its seed gives the rest.
    package func addFailure(_ worker: Int, index: UInt64, seed: UInt64, _ result: RunResult) {
        addFailure(
            worker, index: index, seed: seed, signature: FailureSignature(result.verdict).id,
            digest: result.digest.value)
    }
}

/// What a campaign's workers ran and found, summed over workers (before the first-failure rule).
package struct CampaignTally: Sendable {
    /// Runs that ended (a crashed run counts once its crash is recorded).
    package var runs: Int
    /// Runs that reached each of the plan's coverage goals, in declaration order.
    package var goalCounts: [Int]
    /// The distinct failures, each with what the lowest seed's run left.
    package var findings: FindingsTable<RunEvidence>
    /// The distinct schedules run and what the runs saw but did not control.
    package var explored: Explored
    /// The lock orders the runs took (`--preempt`), each pair of classes with its lowest seed.
    package var lockOrder = LockOrderTable()

    package init(runs: Int, goalCounts: [Int], findings: FindingsTable<RunEvidence>, explored: Explored = Explored()) {
        self.runs = runs
        self.goalCounts = goalCounts
        self.findings = findings
        self.explored = explored
    }
}

/// What a worker knows of a failing run without keeping its tape: re-running the seed gives the rest.
package enum RunEvidence: Sendable, Equatable, Codable {
    /// An oracle failed; `digest` is the run's event digest (a re-run that differs is nondeterministic).
    case failed(digest: UInt64)
    /// The run trapped and took its worker process down; the runtime's message (or how it ended).
    case crashed(message: String)
}
