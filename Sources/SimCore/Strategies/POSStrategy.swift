/// Partial order sampling (Yuan, Yang, Gu: "Partial Order Aware Concurrency Sampling", CAV 2018):
/// every pending job gets a random priority when it is first offered; the highest-priority job runs;
/// then every pending job that *races* with the one that ran (same object, not both reads — read
/// from the labels, see `JobAccess`) gets a fresh priority. Jobs that do not race keep theirs, which
/// is what makes POS sample partial orders more evenly than a random walk samples interleavings.
public final class POSStrategy: Strategy {
    @exclusivity(unchecked) private var random = SplitMix64(seed: 0)
    @exclusivity(unchecked) private var buggify = BuggifyPolicy()
    /// Priorities of the jobs offered so far and not yet run, by posting order.
    private var priorities: [UInt64: UInt64] = [:]
    private var accesses = JobAccessCache()

    public init() {}
    public var description: String { "pos" }

    public func start(seed: UInt64, symbols: SymbolTable) {
        random = SplitMix64(seed: seed)
        buggify.start(&random)
        priorities.removeAll(keepingCapacity: true)
        accesses.reset()
    }

    public func pick(_ ready: ReadySet) -> Int {
        var best = 0
        var bestPriority: UInt64 = 0
        for index in ready.indices {
            let seq = ready[index].seq
            let priority: UInt64
            if let known = priorities[seq] {
                priority = known
            } else {
                priority = random.next()
                priorities[seq] = priority
            }
            if index == 0 || priority > bestPriority {
                best = index
                bestPriority = priority
            }
        }
        let chosen = accesses.access(ready[best].label, in: ready.symbols)
        priorities[ready[best].seq] = nil
        for index in ready.indices where index != best {
            let other = accesses.access(ready[index].label, in: ready.symbols)
            if chosen.races(with: other) { priorities[ready[index].seq] = random.next() }
        }
        return best
    }

    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        if kind == .buggify { return buggify.fires(site, &random) ? 1 : 0 }
        return random.below(count)
    }
}
