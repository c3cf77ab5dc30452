/// Where a simulation sends what it records: symbol definitions, events and decisions, in order.
///
/// A sink runs on the simulation's thread; the trace writer is one, a null sink another.
public protocol EventSink: AnyObject {
    /// A new symbol; always delivered before any record that uses it.
    func define(_ symbol: Symbol, _ text: String)
    func record(_ event: Event)
    func record(_ decision: Decision)
}

/// Discards everything (fuzzing keeps only decisions and the digest).
public final class NullSink: EventSink {
    public init() {}
    public func define(_ symbol: Symbol, _ text: String) {}
    public func record(_ event: Event) {}
    public func record(_ decision: Decision) {}
}

/// Keeps everything in memory, in order (tests, shrinking, small runs).
public final class MemorySink: EventSink {
    public enum Record: Hashable, Sendable {
        case event(Event)
        case decision(Decision)
    }

    public private(set) var symbols: [String] = [""]
    public private(set) var records: [Record] = []

    public init() {}

    public func define(_ symbol: Symbol, _ text: String) {
        while symbols.count <= Int(symbol.raw) { symbols.append("") }
        symbols[Int(symbol.raw)] = text
    }
    public func record(_ event: Event) { records.append(.event(event)) }
    public func record(_ decision: Decision) { records.append(.decision(decision)) }

    public var events: [Event] {
        records.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }
    public var decisions: [Decision] {
        records.compactMap { if case .decision(let d) = $0 { d } else { nil } }
    }
    public func text(_ symbol: Symbol) -> String {
        Int(symbol.raw) < symbols.count ? symbols[Int(symbol.raw)] : "?\(symbol.raw)"
    }
}
