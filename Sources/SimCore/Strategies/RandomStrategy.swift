/// A random walk: every pick and every choice uniform, buggify by the swarm rule.
public final class RandomStrategy: Strategy {
    @exclusivity(unchecked) private var random = SplitMix64(seed: 0)
    @exclusivity(unchecked) private var buggify = BuggifyPolicy()

    /// A random walk, seeded at each `start`.
    public init() {}
    /// `random`.
    public var description: String { "random" }

    /// Seeds the generator and draws this run's buggify rule.
    public func start(seed: UInt64, symbols: SymbolTable) {
        random = SplitMix64(seed: seed)
        buggify.start(&random)
    }

    /// Any ready job, uniformly.
    public func pick(_ ready: ReadySet) -> Int { random.below(ready.count) }

    /// `pick` without a `ReadySet`, for the scheduler's direct call.
    /// Spelled out (the same draw as `random.below(count)`) so that it inlines into the scheduler's
    /// loop: an out-of-line call there costs a retain and release of the strategy per pick.
    @inline(__always)
    func pickIndex(_ count: Int) -> Int {
        random.state &+= 0x9E37_79B9_7F4A_7C15
        var z = random.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)).multipliedFullWidth(by: UInt64(count)).high)
    }

    /// A uniform value, or a buggify answer by the swarm rule.
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        if kind == .buggify { return buggify.fires(site, &random) ? 1 : 0 }
        return random.below(count)
    }
}
