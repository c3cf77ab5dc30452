/// What one run produced.
public struct RunResult: Sendable {
    public var verdict: Verdict
    public var steps: Int
    public var eventCount: UInt64
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
}
