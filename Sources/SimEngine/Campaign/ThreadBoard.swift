import SimCore
import Synchronization

/// The campaign board of worker threads in this process: the claim counter and the stop line are
/// atomics, and each worker keeps its runs, goals and findings under a lock of its own (taken only by
/// that worker, and by the progress report now and then), so workers never contend per run.
///
/// An in-order campaign (one thread, one strategy object) cannot redo a finding from its seed, so
/// its board keeps each finding's run with it (`keepsRuns`); in a guarded child it also marks each
/// run before it starts (`marker`), for the parent to read if the run traps.
package final class ThreadBoard: CampaignBoard {
    private let nextIndex = Atomic<UInt64>(0)
    private let stop = Atomic<UInt64>(.max)
    private let lanes: [Lane]
    private let goals: Int
    private let cancellation: Cancellation
    private let marker: RunMarker?
    private let keepsRuns: Bool

    /// One worker's own counts.
    private final class Lane: Sendable {
        let state: Mutex<State>
        init(goals: Int) { state = Mutex(State(goals: GoalTally(goals: goals))) }
    }

    /// A failure as a thread keeps it: what any worker keeps, and the run itself when the board keeps runs.
    private struct Failure: Sendable {
        var evidence: RunEvidence
        var run: RunResult?
    }

    private struct State {
        var runs = 0
        var goals: GoalTally
        var findings = FindingsTable<Failure>()
        var explored = Explored()
        var lockOrder = LockOrderTable()
    }

    /// A board for `workers` threads of a plan with `goals` coverage goals, interrupted when
    /// `cancellation` says so; `marker` marks each run before it starts, and with `keepsRuns` each
    /// finding keeps its run (``keptRun(seed:)``).
    package init(
        workers: Int, goals: Int, cancellation: Cancellation = .never, marker: RunMarker? = nil,
        keepsRuns: Bool = false
    ) {
        precondition(workers >= 1, "a campaign needs a worker")
        precondition(!keepsRuns || workers == 1, "a board keeps runs of one in-order worker only")
        self.goals = goals
        self.cancellation = cancellation
        self.marker = marker
        self.keepsRuns = keepsRuns
        lanes = (0..<workers).map { _ in Lane(goals: goals) }
    }

    package func claimChunk(_ worker: Int) -> Range<UInt64>? {
        SeedSpace.chunk(startingAt: nextIndex.wrappingAdd(SeedSpace.chunkSize, ordering: .relaxed).oldValue)
    }

    package var stopSeed: UInt64 { stop.load(ordering: .relaxed) }
    package func lowerStopSeed(to seed: UInt64) { stop.lowerStopLine(to: seed) }
    /// Only the campaign's cancellation (Ctrl-C or SIGTERM, for a command) interrupts threads.
    package var isInterrupted: Bool { cancellation.isRequested }
    /// A thread that traps takes the process with it: only a marker (``willRun(_:index:seed:)``)
    /// leaves which run it was.
    package func setInFlight(_ worker: Int, _ index: UInt64?) {}

    /// Marks the run (its index is the run's number: one in-order worker) where a trap leaves it.
    package func willRun(_ worker: Int, index: UInt64, seed: UInt64) {
        marker?.mark(run: Int(index), seed: seed)
    }

    package func addRun(_ worker: Int, seed: UInt64, _ result: RunResult) {
        lanes[worker].state.withLock { state in
            state.runs += 1
            state.goals.count(result)
            state.explored.add(result, seed: seed)
        }
    }

    package func addFailure(_ worker: Int, index: UInt64, seed: UInt64, signature: UInt64, digest: UInt64) {
        lanes[worker].state.withLock {
            $0.findings.record(signature: signature, seed: seed, evidence: Failure(evidence: .failed(digest: digest)))
        }
    }

    package func addFailure(_ worker: Int, index: UInt64, seed: UInt64, _ result: RunResult) {
        let failure = Failure(evidence: .failed(digest: result.digest.value), run: keepsRuns ? result : nil)
        lanes[worker].state.withLock {
            $0.findings.record(signature: FailureSignature(result.verdict).id, seed: seed, evidence: failure)
        }
    }

    /// The run kept for the finding whose lowest seed is `seed` (boards that keep runs only).
    package func keptRun(seed: UInt64) -> RunResult? {
        lanes.lazy.compactMap { lane in
            lane.state.withLock { state in state.findings.entries.first { $0.seed == seed }?.evidence.run }
        }.first
    }

    package func addLockOrder(_ worker: Int, seed: UInt64, _ edges: [LockOrderEdge]) {
        _ = lanes[worker].state.withLock { $0.lockOrder.add(edges, seed: seed) }
    }

    package func tally() -> CampaignTally {
        var runs = 0
        var goalTally = GoalTally(goals: goals)
        var findings = FindingsTable<Failure>()
        var explored = Explored()
        var lockOrder = LockOrderTable()
        for lane in lanes {
            lane.state.withLock { state in
                runs += state.runs
                goalTally.add(state.goals)
                findings.merge(state.findings)
                explored.merge(state.explored)
                lockOrder.merge(state.lockOrder)
            }
        }
        var tally = CampaignTally(
            runs: runs, goalCounts: goalTally.counts(for: goals), findings: findings.mapEvidence(\.evidence.evidence),
            explored: explored)
        tally.lockOrder = lockOrder
        return tally
    }
}
