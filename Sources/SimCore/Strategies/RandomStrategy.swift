/// A random walk: every pick and every choice uniform, buggify by the swarm rule.
public final class RandomStrategy: Strategy {
    @exclusivity(unchecked) private var random = SplitMix64(seed: 0)
    @exclusivity(unchecked) private var buggify = BuggifyPolicy()

    public init() {}
    public var description: String { "random" }

    public func start(seed: UInt64, symbols: SymbolTable) {
        random = SplitMix64(seed: seed)
        buggify.start(&random)
    }

    public func pick(_ ready: ReadySet) -> Int { random.below(ready.count) }

    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        if kind == .buggify { return buggify.fires(site, &random) ? 1 : 0 }
        return random.below(count)
    }
}
