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

    /// Starts `inner`, keeping the run's symbols to read site names.
    public func start(seed: UInt64, symbols: SymbolTable) {
        self.symbols = symbols
        inner.start(seed: seed, symbols: symbols)
    }

    /// `inner`'s pick.
    public func pick(_ ready: ReadySet) -> Int { inner.pick(ready) }

    /// The pinned value at a pinned site (when in range), otherwise `inner`'s choice.
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        if kind == .choose, let symbols, let value = pinned[symbols[site]], value < count { return value }
        return inner.choose(count, kind: kind, site: site)
    }

    /// Ends `inner`'s run.
    public func finish(steps: Int) { inner.finish(steps: steps) }
    /// `inner`'s notes.
    public var notes: [String] { inner.notes }
}
