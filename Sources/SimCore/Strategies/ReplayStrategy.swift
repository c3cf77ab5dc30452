/// Follows a recorded tape. Picks are matched by job identity (lane, label, ordinal), so the tape
/// still drives a run whose code added or removed unrelated jobs; where it cannot be followed the
/// strategy takes the `fifo` default and says so in `notes`.
///
/// The decisions come from a `Tape` in memory, or from a `DecisionSource` read as the run asks for
/// them (`init(source:)`: one run only, since the source is consumed).
public final class ReplayStrategy: Strategy {
    /// The schedule followed (empty for a strategy reading a `DecisionSource`).
    public let tape: Tape
    private let source: (any DecisionSource)?
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var symbols = SymbolTable()
    /// Tape symbol number -> this run's symbol (raw + 1; 0 = not resolved yet). A string lookup per
    /// pick was most of a replay's scheduling cost; only hits are cached, since a symbol missing now
    /// may be interned later in the run.
    @exclusivity(unchecked) private var resolved: [UInt32] = []
    /// Where the tape could not be followed, one line each.
    @exclusivity(unchecked) public private(set) var notes: [String] = []
    /// Decisions of the tape consumed by the last run.
    public var consumed: Int { position }
    /// How much of the tape the last run followed (decisions consumed, and followed as recorded).
    @exclusivity(unchecked) public private(set) var tally = ScheduleTally()
    /// Decisions of the last run that could not be followed (the tape's end not counted).
    @exclusivity(unchecked) public private(set) var departures = 0

    /// Follows `tape`, which may be replayed any number of times.
    public init(tape: Tape) {
        self.tape = tape
        source = nil
    }

    /// Follows the decisions `source` hands out, in order; for one run.
    public init(source: any DecisionSource) {
        tape = Tape()
        self.source = source
    }

    /// `replay`.
    public var description: String { "replay" }

    /// Starts again from the tape's first decision and clears the notes.
    public func start(seed: UInt64, symbols: SymbolTable) {
        position = 0
        self.symbols = symbols
        resolved = Array(repeating: 0, count: tape.symbols.count)
        notes.removeAll()
        tally = ScheduleTally()
        departures = 0
    }

    private func note(_ text: String) {
        if notes.count < 20 { notes.append(text) }
    }

    /// Counts a decision of the tape as met by the run, followed or not.
    @inline(__always)
    private func count(_ wanted: Decision, followed: Bool) {
        tally.decisions += 1
        if wanted.isDeviation { tally.deviations += 1 }
        if followed {
            tally.followed += 1
            if wanted.isDeviation { tally.followedDeviations += 1 }
        } else {
            departures += 1
        }
    }

    /// The next decision to follow, or nil when the schedule has none left.
    @inline(__always)
    private func nextWanted() -> Decision? {
        if let source { return source.nextDecision() }
        return position < tape.decisions.count ? tape.decisions[position] : nil
    }

    private func text(_ symbol: Symbol) -> String {
        if let source { return source.text(symbol) }
        return tape.text(symbol)
    }

    /// The ready job the tape names by identity, or the `fifo` job (with a note) when it is not ready.
    public func pick(_ ready: ReadySet) -> Int {
        guard let wanted = nextWanted() else {
            note("the tape ended after decision \(position); following fifo from here")
            position += 1
            return ready.fifoIndex
        }
        let number = position + 1  // 1-based, as `show` and `explain` number decisions
        position += 1
        guard wanted.kind == .pick else {
            count(wanted, followed: false)
            note("decision \(number): the tape has a \(wanted.kind.name) here, the run asks for a pick")
            return ready.fifoIndex
        }
        let lane = liveSymbol(wanted.lane)
        let label = liveSymbol(wanted.label)
        if let lane, let label {
            for index in ready.indices {
                let candidate = ready[index]
                if candidate.lane == lane && candidate.label == label && candidate.ordinal == wanted.ordinal {
                    count(wanted, followed: true)
                    return index
                }
            }
        }
        count(wanted, followed: false)
        let key = JobKey(lane: text(wanted.lane), label: text(wanted.label), ordinal: wanted.ordinal)
        note("decision \(number): job \(key) is not ready; took fifo")
        return ready.fifoIndex
    }

    private func liveSymbol(_ symbol: Symbol) -> Symbol? {
        let index = Int(symbol.raw)
        if index >= resolved.count {
            // A source defines its symbols as it goes; a tape's are all known up front.
            guard source != nil, index < 1 << 24 else { return symbols.lookup(text(symbol)) }
            resolved += repeatElement(0, count: index + 1 - resolved.count)
        }
        if resolved[index] != 0 { return Symbol(raw: resolved[index] - 1) }
        guard let found = symbols.lookup(text(symbol)) else { return nil }
        resolved[index] = found.raw + 1
        return found
    }

    /// The tape's value when it fits this choice, or 0 (with a note).
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        guard let wanted = nextWanted() else {
            note("the tape ended after decision \(position); taking defaults from here")
            position += 1
            return 0
        }
        let number = position + 1  // 1-based, as `show` and `explain` number decisions
        position += 1
        guard wanted.kind == kind, Int(wanted.chosen) < count else {
            self.count(wanted, followed: false)
            note(
                "decision \(number): the tape has \(wanted.kind.name) \(wanted.chosen)/\(wanted.count), the run asks for \(kind.name) of \(count)"
            )
            return 0
        }
        self.count(wanted, followed: true)
        return Int(wanted.chosen)
    }

    /// True when the last run consumed the whole tape and never departed from it. (For a source:
    /// never departed from it; whether decisions remain unread is the source's to tell.)
    public var followedExactly: Bool { notes.isEmpty && (source != nil || position == tape.decisions.count) }
}
