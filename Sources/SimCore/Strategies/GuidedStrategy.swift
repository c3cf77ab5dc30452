/// Takes choices by position from a list and the `fifo` default everywhere else: the shrinker's
/// tool for asking "does the failure survive if these decisions go back to the default?".
public final class GuidedStrategy: Strategy {
    /// The choice for decision `n`, or nil for the default.
    public let choices: [UInt32?]
    private var position = 0

    /// Takes `choices[i]` at the i-th decision; nil entries and decisions past the end take the default.
    public init(choices: [UInt32?]) { self.choices = choices }

    /// `guided`.
    public var description: String { "guided" }

    /// Starts again from the first choice; the seed is not used.
    public func start(seed: UInt64, symbols: SymbolTable) { position = 0 }

    private func take(count: Int, fallback: Int) -> Int {
        defer { position += 1 }
        guard position < choices.count, let wanted = choices[position], Int(wanted) < count else { return fallback }
        return Int(wanted)
    }

    /// The listed choice for this decision if it is in range, else the `fifo` job.
    public func pick(_ ready: ReadySet) -> Int { take(count: ready.count, fallback: ready.fifoIndex) }

    /// The listed choice for this decision if it is in range, else 0.
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int { take(count: count, fallback: 0) }
}
