/// `nsurw`: a uniform random walk over (nearly) every event, SURW's non-selective variant (Zhao,
/// Wolff, Mathur, Roychoudhury: "Selectively Uniform Concurrency Testing", ASPLOS 2025; its artifact
/// calls it N-S, `configs/basicurw.json`). The published, selective walk is `SURWStrategy`. A random walk
/// that picks each lane with equal probability favours interleavings where short lanes run early;
/// weighting each lane by the number of events it has *left* samples interleavings uniformly. This
/// variant weights every job whose label names an object (see
/// `JobAccess`; other jobs are picked uniformly, as they cannot change an outcome by themselves).
///
/// How many interesting events each lane has is learned from the runs before (the largest count a
/// lane has shown); a lane never seen counts as one. The strategy therefore learns across runs: a
/// campaign runs it on one thread in seed order (`StrategySpec.Kind.learnsAcrossRuns`), so a seed's
/// schedule depends on the seeds before it in the range, not on `--jobs`.
public final class NSURWStrategy: Strategy {
    @exclusivity(unchecked) private var random = SplitMix64(seed: 0)
    @exclusivity(unchecked) private var buggify = BuggifyPolicy()
    private var accesses = JobAccessCache()
    /// Interesting events per lane (by the lane name's hash), the most any run has shown so far.
    private var expected: [UInt64: Int] = [:]
    /// Interesting events each lane has had this run.
    private var taken: [UInt64: Int] = [:]

    /// A non-selective uniform walk that has seen no run yet.
    public init() {}
    /// `nsurw`.
    public var description: String { "nsurw" }

    /// Seeds the run and clears its per-lane counts (what earlier runs showed is kept).
    public func start(seed: UInt64, symbols: SymbolTable) {
        random = SplitMix64(seed: seed)
        buggify.start(&random)
        accesses.reset()
        taken.removeAll(keepingCapacity: true)
    }

    /// A ready job weighted by the interesting events its lane has left; uniform when none is interesting.
    public func pick(_ ready: ReadySet) -> Int {
        // Interesting candidates are weighted by what their lane has left; if there are none, uniform.
        var weights: [Int] = []
        weights.reserveCapacity(ready.count)
        var total = 0
        for index in ready.indices {
            let candidate = ready[index]
            let weight: Int
            if accesses.access(candidate.label, in: ready.symbols).object == nil {
                weight = 0
            } else {
                let lane = ready.symbols.contentHash(candidate.lane)
                weight = max(1, (expected[lane] ?? 1) - (taken[lane] ?? 0))
            }
            weights.append(weight)
            total += weight
        }
        let chosen: Int
        if total == 0 {
            chosen = random.below(ready.count)
        } else {
            var ticket = random.below(total)
            var index = 0
            while ticket >= weights[index] {
                ticket -= weights[index]
                index += 1
            }
            chosen = index
        }
        if weights[chosen] > 0 {
            taken[ready.symbols.contentHash(ready[chosen].lane), default: 0] += 1
        }
        return chosen
    }

    /// A uniform data choice from the run's generator (buggify by the swarm rule).
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        if kind == .buggify { return buggify.fires(site, &random) ? 1 : 0 }
        return random.below(count)
    }

    /// Learns each lane's count of interesting events from the run that ended.
    public func finish(steps: Int) {
        // A maximum per key: the order the dictionary is walked in cannot change the result.
        for (lane, count) in taken where count > (expected[lane] ?? 0) { expected[lane] = count }
    }
}
