/// What one run produced.
public struct RunResult: Sendable {
    /// Pass, or the oracle or limit that failed the run.
    public var verdict: Verdict
    /// Jobs run.
    public var steps: Int
    /// Events emitted.
    public var eventCount: UInt64
    /// Hash of every event: equal digests mean the runs emitted the same events.
    public var digest: Digest
    /// The decisions made, replayable on another run.
    public var tape: Tape
    /// Virtual nanoseconds at the end.
    public var endTime: Int64
    /// Coverage goals reached, in declaration order.
    public var reachedGoals: [String]
    /// Every coverage goal declared, in order.
    public var goals: [String]
    /// Where a replayed tape could not be followed (empty when it was followed exactly).
    public var strategyNotes: [String]
    /// The run's lock order under `--preempt`: each pair of lock classes one carrier held and took,
    /// once (empty off carriers). A campaign looks for both orders of a pair across its runs.
    public var lockOrder: [LockOrderEdge] = []
}
