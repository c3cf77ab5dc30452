/// Exhaustive search over every schedule with at most `preemptionBound` preemptions (switching away
/// from the lane that ran last while it still has a ready job), and over every data choice.
///
/// Stateless: each run replays a prefix of choices and extends it with defaults; `finish` moves to
/// the next unexplored branch. `isExhausted` turns true when every schedule under the bound has run.
public final class DFSStrategy: Strategy {
    struct Point {
        var rank: Int
        var count: Int
        /// Whether the options other than rank 0 are preemptions.
        var preemptive: Bool
        /// Candidate indices in exploration order (rank 0 is the non-preempting, `fifo` choice).
        var order: [Int]
    }

    /// The most preemptions a schedule may have.
    public let preemptionBound: Int
    /// Runs after which the search stops without being exhausted.
    public let maxRuns: Int
    private var path: [Point] = []
    private var depth = 0
    /// Runs finished so far.
    public private(set) var runs = 0
    /// True once every schedule under the bound has run.
    public private(set) var isExhausted = false
    /// Why the search stopped early, when it did.
    public private(set) var notes: [String] = []

    /// A search of every schedule with at most `preemptionBound` preemptions, up to `maxRuns` runs.
    public init(preemptionBound: Int = 2, maxRuns: Int = 1_000_000) {
        self.preemptionBound = preemptionBound
        self.maxRuns = maxRuns
    }

    /// `dfs:preemptions=P`.
    public var description: String { "dfs:preemptions=\(preemptionBound)" }

    /// Starts a run down the current branch; the seed is not used.
    public func start(seed: UInt64, symbols: SymbolTable) {
        depth = 0
        notes.removeAll()
    }

    private func preemptionsBefore(_ index: Int) -> Int {
        var total = 0
        for point in path[..<index] where point.preemptive && point.rank > 0 { total += 1 }
        return total
    }

    private func next(count: Int, preemptive: Bool, order: [Int]) -> Int {
        defer { depth += 1 }
        if depth < path.count {
            if path[depth].count != count {
                notes.append(
                    "dfs: decision \(depth) had \(path[depth].count) options, now \(count): the scenario is not deterministic"
                )
                path.removeSubrange(depth...)
            } else {
                return path[depth].order[path[depth].rank]
            }
        }
        path.append(Point(rank: 0, count: count, preemptive: preemptive, order: order))
        return order[0]
    }

    /// The job the current branch prescribes, or the default past its end.
    public func pick(_ ready: ReadySet) -> Int {
        let first = ready.continuingIndex ?? ready.fifoIndex
        var order = [first]
        order.reserveCapacity(ready.count)
        let bySeq = ready.indices.sorted { ready[$0].seq < ready[$1].seq }
        for index in bySeq where index != first { order.append(index) }
        return next(count: ready.count, preemptive: ready.continuingIndex != nil, order: order)
    }

    /// The value the current branch prescribes, or 0 past its end.
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        next(count: count, preemptive: false, order: Array(0..<count))
    }

    /// Moves to the next unexplored branch, or marks the search exhausted.
    public func finish(steps: Int) {
        runs += 1
        path.removeSubrange(min(depth, path.count)...)
        while let last = path.indices.last {
            let point = path[last]
            let budgetLeft = preemptionBound - preemptionsBefore(last)
            if point.rank + 1 < point.count && (!point.preemptive || budgetLeft >= 1) {
                path[last].rank += 1
                return
            }
            path.removeLast()
        }
        isExhausted = true
    }

    /// True when another run would explore a new schedule.
    public var hasMore: Bool { !isExhausted && runs < maxRuns }
}
