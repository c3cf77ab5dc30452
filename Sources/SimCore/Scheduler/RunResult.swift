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
    /// What the run saw but did not control (``Simulation/noteUncontrolled(_:_:at:)``), each distinct
    /// observation once with how often it was seen; empty when the scheduler held everything it saw.
    public var uncontrolled: [Uncontrolled] = []
    /// The run's schedule, as one number: a hash of its decisions in order (each one's kind, the
    /// option taken and the options offered). Runs of one scenario and variant with the same
    /// digest made the same decisions, so (simrun's runs being deterministic) ran the same schedule;
    /// a campaign counts its distinct schedules by it. A run that made no decision has the digest
    /// of the empty schedule.
    public var scheduleDigest: UInt64 = Digest().value
    /// The run's lock order under `--preempt`: each pair of lock classes one carrier held and took,
    /// once (empty off carriers). A campaign looks for both orders of a pair across its runs.
    public var lockOrder: [LockOrderEdge] = []
}
