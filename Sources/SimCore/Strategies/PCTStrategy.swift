/// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010): each lane gets a random
/// priority, the highest-priority ready lane runs, and at `depth - 1` random steps the running lane
/// drops below all others. Finds any bug of depth `d` with probability at least 1/(n·k^(d-1)).
///
/// The step count `k` is learned from a probe run of the scenario (see `learn(steps:)`).
public final class PCTStrategy: Strategy {
    /// The bug depth aimed at: `depth - 1` priority change points per run.
    public let depth: Int
    @exclusivity(unchecked) private var random = SplitMix64(seed: 0)
    @exclusivity(unchecked) private var buggify = BuggifyPolicy()
    @exclusivity(unchecked) private var priorities: [Symbol: Int] = [:]
    private var changePoints: [Int] = []
    private var changesMade = 0
    private(set) public var estimatedSteps: Int

    /// PCT for bugs of depth `depth`, spreading change points over `estimatedSteps` steps until `learn(steps:)`.
    public init(depth: Int = 3, estimatedSteps: Int = 64) {
        precondition(depth >= 1, "pct depth must be at least 1")
        self.depth = depth
        self.estimatedSteps = max(estimatedSteps, 1)
    }

    /// `pct:depth=D`.
    public var description: String { "pct:depth=\(depth)" }

    /// Seeds the run's generator and draws its change points (lane priorities are drawn as lanes appear).
    public func start(seed: UInt64, symbols: SymbolTable) {
        random = SplitMix64(seed: seed)
        buggify.start(&random)
        priorities.removeAll(keepingCapacity: true)
        changePoints = (0..<(depth - 1)).map { _ in random.below(estimatedSteps) }.sorted()
        changesMade = 0
    }

    private func priority(of lane: Symbol) -> Int {
        if let known = priorities[lane] { return known }
        // Initial priorities sit above every change-point priority (0..<depth).
        let assigned = depth + random.below(1 << 30)
        priorities[lane] = assigned
        return assigned
    }

    /// The ready job of the highest-priority lane (lowering the running lane at a change point).
    public func pick(_ ready: ReadySet) -> Int {
        var best = 0
        var bestPriority = Int.min
        for index in ready.indices {
            let candidate = ready[index]
            let p = priority(of: candidate.lane)
            if p > bestPriority || (p == bestPriority && candidate.seq < ready[best].seq) {
                best = index
                bestPriority = p
            }
        }
        while changesMade < changePoints.count && changePoints[changesMade] <= ready.step {
            // Demote the lane about to run, then pick again among the rest.
            priorities[ready[best].lane] = depth - 2 - changesMade
            changesMade += 1
            return pick(ready)
        }
        return best
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
