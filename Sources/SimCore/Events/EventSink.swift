/// Where a simulation sends what it records: symbol definitions, events and decisions, in order.
///
/// A sink runs on the simulation's thread; the trace writer is one, a null sink another.
public protocol EventSink: AnyObject {
    /// A new symbol; always delivered before any record that uses it.
    func define(_ symbol: Symbol, _ text: String)
    /// An event, in the order the run emitted it.
    func record(_ event: Event)
    /// A decision, in the order the run made it (between the events around it).
    func record(_ decision: Decision)
}

/// Discards everything (fuzzing keeps only decisions and the digest).
public final class NullSink: EventSink {
    /// A sink that keeps nothing.
    public init() {}
    /// Ignores the symbol.
    public func define(_ symbol: Symbol, _ text: String) {}
    /// Ignores the event.
    public func record(_ event: Event) {}
    /// Ignores the decision.
    public func record(_ decision: Decision) {}
}

/// Keeps everything in memory, in order (tests, shrinking, small runs).
public final class MemorySink: EventSink {
    /// One recorded item: an event or a decision.
    public enum Record: Hashable, Sendable {
        /// An event.
        case event(Event)
        /// A decision.
        case decision(Decision)
    }

    /// Every symbol's text, by number.
    public private(set) var symbols: [String] = [""]
    /// Events and decisions in the order they were recorded.
    public private(set) var records: [Record] = []

    /// An empty sink.
    public init() {}

    /// Keeps the symbol's text.
    public func define(_ symbol: Symbol, _ text: String) {
        while symbols.count <= Int(symbol.raw) { symbols.append("") }
        symbols[Int(symbol.raw)] = text
    }
    /// Keeps the event.
    public func record(_ event: Event) { records.append(.event(event)) }
    /// Keeps the decision.
    public func record(_ decision: Decision) { records.append(.decision(decision)) }

    /// The events alone, in order.
    public var events: [Event] {
        records.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }
    /// The decisions alone, in order.
    public var decisions: [Decision] {
        records.compactMap { if case .decision(let d) = $0 { d } else { nil } }
    }
    /// The text of `symbol`, or `?N` for one never defined.
    public func text(_ symbol: Symbol) -> String {
        Int(symbol.raw) < symbols.count ? symbols[Int(symbol.raw)] : "?\(symbol.raw)"
    }
}
