import SimCore

/// One record of a trace as the reader hands it out (symbol definitions are absorbed by the reader).
public enum TraceRecord: Sendable, Hashable {
    case event(Event)
    case decision(Decision)
    /// A frame boundary: everything before it is durable. Counts are totals so far.
    case checkpoint(events: UInt64, decisions: UInt64)
    /// The end of a complete trace.
    case footer(TraceFooter)
}
