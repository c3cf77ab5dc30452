/// What kind of choice a decision made.
public enum DecisionKind: UInt8, Sendable, CaseIterable {
    /// Which ready job (or due timer) runs next.
    case pick = 1
    /// A data choice: `choose(n)`.
    case choose = 2
    /// Whether a fault-injection site fires.
    case buggify = 3
    /// One step of a permutation of a "no particular order" set.
    case permute = 4

    /// The kind as `show` and notes print it: `pick`, `choose`, `buggify` or `permute`.
    public var name: String {
        switch self {
        case .pick: "pick"
        case .choose: "choose"
        case .buggify: "buggify"
        case .permute: "permute"
        }
    }
}

/// One choice made during a run: the only source of variation between runs.
///
/// Picks record the job taken by identity (lane, label, ordinal) as well as by index, so a schedule
/// still replays when unrelated jobs are added or removed.
public struct Decision: Hashable, Sendable {
    /// A pick among jobs, or which kind of data choice.
    public var kind: DecisionKind
    /// The index chosen among `count` options.
    public var chosen: UInt32
    /// How many options there were.
    public var count: UInt32
    /// What `fifo` would have chosen here (marked in `show`, the shrinker's target).
    public var fallback: UInt32
    /// For a pick, the lane of the job taken; otherwise empty.
    public var lane: Symbol
    /// For a pick, the job's label; otherwise the site's name.
    public var label: Symbol
    /// For a pick, the job's ordinal within its lane and label.
    public var ordinal: UInt32
    /// The last event recorded before this decision (0 when none).
    public var afterEvent: EventID

    /// A decision as recorded; a pick also names the job taken (`lane`, `label`, `ordinal`).
    public init(
        kind: DecisionKind, chosen: UInt32, count: UInt32, fallback: UInt32,
        lane: Symbol = .empty, label: Symbol = .empty, ordinal: UInt32 = 0, afterEvent: EventID = 0
    ) {
        self.kind = kind
        self.chosen = chosen
        self.count = count
        self.fallback = fallback
        self.lane = lane
        self.label = label
        self.ordinal = ordinal
        self.afterEvent = afterEvent
    }

    /// True when the choice departs from what `fifo` would do.
    public var isDeviation: Bool { chosen != fallback }
}

/// A recorded schedule: decisions plus the strings their symbols name, so it can drive another run
/// (whose symbol numbering may differ).
public struct Tape: Sendable, Hashable {
    /// The decisions, in the order the run made them.
    public var decisions: [Decision]
    /// The text of every symbol the decisions use, by number (0 is the empty string).
    public var symbols: [String]

    /// A schedule of `decisions` whose symbols name `symbols`.
    public init(decisions: [Decision] = [], symbols: [String] = [""]) {
        self.decisions = decisions
        self.symbols = symbols
    }

    /// The text of `symbol` in this tape, or empty when it has none.
    public func text(_ symbol: Symbol) -> String {
        Int(symbol.raw) < symbols.count ? symbols[Int(symbol.raw)] : ""
    }

    /// The number of decisions.
    public var count: Int { decisions.count }
}
