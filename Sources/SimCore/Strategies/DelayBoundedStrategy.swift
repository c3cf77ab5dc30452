/// Delay-bounded scheduling (Emmi, Qadeer, Rakamarić, POPL 2011): follow `fifo`, except at up to
/// `delays` random steps, where the job `fifo` would take is passed over for another one.
public final class DelayBoundedStrategy: Strategy {
    /// How many times per run the `fifo` job may be passed over.
    public let delays: Int
    @exclusivity(unchecked) private var random = SplitMix64(seed: 0)
    @exclusivity(unchecked) private var buggify = BuggifyPolicy()
    private var delayPoints: [Int] = []
    private var used = 0
    private(set) public var estimatedSteps: Int

    /// At most `delays` delays, at steps drawn among `estimatedSteps` until `learn(steps:)`.
    public init(delays: Int = 2, estimatedSteps: Int = 64) {
        precondition(delays >= 0, "delay bound must not be negative")
        self.delays = delays
        self.estimatedSteps = max(estimatedSteps, 1)
    }

    /// `delay:bound=B`.
    public var description: String { "delay:bound=\(delays)" }

    /// Draws the steps at which this run delays.
    public func start(seed: UInt64, symbols: SymbolTable) {
        random = SplitMix64(seed: seed)
        buggify.start(&random)
        delayPoints = (0..<delays).map { _ in random.below(estimatedSteps) }.sorted()
        used = 0
    }

    /// The `fifo` job, except at a delay step, where another ready job runs.
    public func pick(_ ready: ReadySet) -> Int {
        var delayHere = false
        while used < delayPoints.count && delayPoints[used] <= ready.step {
            used += 1
            delayHere = true
        }
        guard delayHere else { return ready.fifoIndex }
        let other = random.below(ready.count - 1)
        return other >= ready.fifoIndex ? other + 1 : other
    }

    /// A uniform data choice from the run's generator (buggify by the swarm rule).
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        if kind == .buggify { return buggify.fires(site, &random) ? 1 : 0 }
        return random.below(count)
    }

    /// Raises the step estimate (the fuzzer learns it from a probe run before the campaign, so that a
    /// seed's schedule depends only on the seed and the estimate, not on which runs came before).
    public func learn(steps: Int) {
        if steps > estimatedSteps { estimatedSteps = steps }
    }
}
