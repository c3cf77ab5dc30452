import SimCore

/// How the recorded run ended: counts, verdict and the digest of its events.
///
/// The footer is the last record of a complete trace; a trace without one was cut short.
public struct TraceFooter: Sendable, Hashable {
    /// Events in the trace.
    public var eventCount: UInt64
    /// Decisions in the trace.
    public var decisionCount: UInt64
    /// Scheduler steps the run took.
    public var steps: UInt64
    /// Virtual nanoseconds at the end of the run.
    public var endTime: Int64
    /// How the run ended (stored as code, oracle and message).
    public var verdict: Verdict
    /// The digest of all events (`Digest.mix(_:symbolHash:)` over each, symbols by text hash).
    public var digest: Digest

    /// A footer; `eventCount`, `decisionCount` and `digest` must match what was recorded.
    public init(
        eventCount: UInt64, decisionCount: UInt64, steps: UInt64, endTime: Int64, verdict: Verdict, digest: Digest
    ) {
        self.eventCount = eventCount
        self.decisionCount = decisionCount
        self.steps = steps
        self.endTime = endTime
        self.verdict = verdict
        self.digest = digest
    }
}
