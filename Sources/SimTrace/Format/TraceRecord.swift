import SimCore

/// One record of a trace as the reader hands it out (symbol definitions are absorbed by the reader).
public enum TraceRecord: Sendable, Hashable {
    /// An event, with its fields.
    case event(Event)
    /// A decision: a pick among ready jobs or a data choice.
    case decision(Decision)
    /// A frame boundary: everything before it is durable. Counts are totals so far.
    case checkpoint(events: UInt64, decisions: UInt64)
    /// The end of a complete trace.
    case footer(TraceFooter)
}
