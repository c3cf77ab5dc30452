/// Wraps a strategy and writes down what every decision was offered: the ready jobs by identity,
/// which one `fifo` would have taken, and which one was taken. `explain` re-runs a trace's schedule
/// through it to name the job each decision overtook.
public final class ObservingStrategy: Strategy {
    /// What one decision was offered and what it took.
    public struct Offer: Sendable, Hashable {
        /// A pick among jobs or a kind of data choice.
        public var kind: DecisionKind
        /// The ready jobs in the kernel's order; empty for data choices.
        public var candidates: [JobKey]
        /// Which candidate `fifo` would have taken (the default option for data choices).
        public var fifoIndex: Int
        /// The index taken.
        public var chosen: Int
        /// How many options there were.
        public var count: Int

        /// The job taken, for a pick.
        public var taken: JobKey? { chosen < candidates.count ? candidates[chosen] : nil }
        /// The job `fifo` would have run instead, when the pick departed from it.
        public var overtaken: JobKey? {
            chosen != fifoIndex && fifoIndex < candidates.count ? candidates[fifoIndex] : nil
        }
    }

    /// The strategy that makes the decisions.
    public let inner: any Strategy
    /// One entry per decision of the last run, in order.
    public private(set) var offers: [Offer] = []

    /// Observes `inner`.
    public init(_ inner: any Strategy) { self.inner = inner }

    /// The inner strategy's name.
    public var description: String { inner.description }

    /// Clears the offers and starts the inner strategy.
    public func start(seed: UInt64, symbols: SymbolTable) {
        offers.removeAll()
        inner.start(seed: seed, symbols: symbols)
    }

    /// The inner strategy's pick, with the ready jobs written down as an offer.
    public func pick(_ ready: ReadySet) -> Int {
        let chosen = inner.pick(ready)
        let keys = ready.indices.map { ready[$0] }.map {
            JobKey(lane: ready.symbols[$0.lane], label: ready.symbols[$0.label], ordinal: $0.ordinal)
        }
        offers.append(
            Offer(kind: .pick, candidates: keys, fifoIndex: ready.fifoIndex, chosen: chosen, count: ready.count))
        return chosen
    }

    /// The inner strategy's choice, written down as an offer.
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        let chosen = inner.choose(count, kind: kind, site: site)
        offers.append(Offer(kind: kind, candidates: [], fifoIndex: 0, chosen: chosen, count: count))
        return chosen
    }

    /// Ends the inner strategy's run.
    public func finish(steps: Int) { inner.finish(steps: steps) }
    /// The inner strategy's notes.
    public var notes: [String] { inner.notes }
}
