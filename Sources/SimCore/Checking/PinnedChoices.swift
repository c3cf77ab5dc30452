/// A strategy that answers the data choices at some sites with fixed values and leaves every other
/// decision to `inner`: how the shrinker runs one given call scenario under many schedules.
public final class PinnedChoices: Strategy {
    /// The strategy making every other decision.
    public let inner: any Strategy
    private let pinned: [String: Int]
    private var symbols: SymbolTable?

    /// `inner`, except that a `choose` at a site in `pinned` takes its value there.
    public init(_ pinned: [String: Int], inner: any Strategy) {
        self.pinned = pinned
        self.inner = inner
    }

    /// `inner`'s name: the pinned choices are recorded in the run's tape like any other.
    public var description: String { inner.description }

    public func start(seed: UInt64, symbols: SymbolTable) {
        self.symbols = symbols
        inner.start(seed: seed, symbols: symbols)
    }

    public func pick(_ ready: ReadySet) -> Int { inner.pick(ready) }

    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        if kind == .choose, let symbols, let value = pinned[symbols[site]], value < count { return value }
        return inner.choose(count, kind: kind, site: site)
    }

    public func finish(steps: Int) { inner.finish(steps: steps) }
    public var notes: [String] { inner.notes }
}
