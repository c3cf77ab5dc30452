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
    /// For a `crashed` verdict, the functions the process trapped in, innermost first, as the crashed
    /// child's trap reporter named them (empty when unknown: another platform, an older trace). Stored
    /// after the verdict's oracle, which a crash's verdict does not read back, so traces that carry
    /// them stay readable by every version of format 2.
    public var trapFrames: [String] = []

    /// A footer; `eventCount`, `decisionCount` and `digest` must match what was recorded.
    public init(
        eventCount: UInt64, decisionCount: UInt64, steps: UInt64, endTime: Int64, verdict: Verdict, digest: Digest,
        trapFrames: [String] = []
    ) {
        self.trapFrames = trapFrames
        self.eventCount = eventCount
        self.decisionCount = decisionCount
        self.steps = steps
        self.endTime = endTime
        self.verdict = verdict
        self.digest = digest
    }
}
