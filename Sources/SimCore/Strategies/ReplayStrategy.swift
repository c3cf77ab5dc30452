/// Follows a recorded tape. Picks are matched by job identity (lane, label, ordinal), so the tape
/// still drives a run whose code added or removed unrelated jobs; where it cannot be followed the
/// strategy takes the `fifo` default and says so in `notes`.
public final class ReplayStrategy: Strategy {
    public let tape: Tape
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var symbols = SymbolTable()
    /// Tape symbol number -> this run's symbol (raw + 1; 0 = not resolved yet). A string lookup per
    /// pick was most of a replay's scheduling cost; only hits are cached, since a symbol missing now
    /// may be interned later in the run.
    @exclusivity(unchecked) private var resolved: [UInt32] = []
    @exclusivity(unchecked) public private(set) var notes: [String] = []
    /// Decisions of the tape consumed by the last run.
    public var consumed: Int { position }

    public init(tape: Tape) { self.tape = tape }

    public var description: String { "replay" }

    public func start(seed: UInt64, symbols: SymbolTable) {
        position = 0
        self.symbols = symbols
        resolved = Array(repeating: 0, count: tape.symbols.count)
        notes.removeAll()
    }

    private func note(_ text: String) {
        if notes.count < 20 { notes.append(text) }
    }

    public func pick(_ ready: ReadySet) -> Int {
        guard position < tape.decisions.count else {
            note("tape ended at decision \(position); following fifo from here")
            position += 1
            return ready.fifoIndex
        }
        let wanted = tape.decisions[position]
        let number = position
        position += 1
        guard wanted.kind == .pick else {
            note("decision \(number): the tape has a \(wanted.kind.name) here, the run asks for a pick")
            return ready.fifoIndex
        }
        let lane = liveSymbol(wanted.lane)
        let label = liveSymbol(wanted.label)
        if let lane, let label {
            for index in ready.indices {
                let candidate = ready[index]
                if candidate.lane == lane && candidate.label == label && candidate.ordinal == wanted.ordinal {
                    return index
                }
            }
        }
        let key = JobKey(lane: tape.text(wanted.lane), label: tape.text(wanted.label), ordinal: wanted.ordinal)
        note("decision \(number): job \(key) is not ready; took fifo")
        return ready.fifoIndex
    }

    private func liveSymbol(_ symbol: Symbol) -> Symbol? {
        let index = Int(symbol.raw)
        guard index < resolved.count else { return symbols.lookup(tape.text(symbol)) }
        if resolved[index] != 0 { return Symbol(raw: resolved[index] - 1) }
        guard let found = symbols.lookup(tape.text(symbol)) else { return nil }
        resolved[index] = found.raw + 1
        return found
    }

    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        guard position < tape.decisions.count else {
            note("tape ended at decision \(position); taking defaults from here")
            position += 1
            return 0
        }
        let wanted = tape.decisions[position]
        let number = position
        position += 1
        guard wanted.kind == kind, Int(wanted.chosen) < count else {
            note(
                "decision \(number): the tape has \(wanted.kind.name) \(wanted.chosen)/\(wanted.count), the run asks for \(kind.name) of \(count)"
            )
            return 0
        }
        return Int(wanted.chosen)
    }

    /// True when the last run consumed the whole tape and never departed from it.
    public var followedExactly: Bool { notes.isEmpty && position == tape.decisions.count }
}
