/// Exhaustive search over every schedule with at most `preemptionBound` preemptions and at most as
/// many non-default data values.
///
/// A preemption here is any pick that leaves the default order — continue the lane that ran last,
/// else take the oldest ready job (`fifo`): switching away from a lane that still has a ready job,
/// as CHESS counts it, and also taking another job than `fifo` where no lane continues. CHESS gives
/// that second kind away for free; here it would not be: background work (`--noise` lanes, any real
/// app's timers and tasks) makes such points so common that the free tree alone outgrows any budget.
/// Data choices (`choose`, `buggify`, `permute`) are bounded apart, by the same number, so a bug
/// needing one fault and one preemption is in round 1.
///
/// Iterative bounding, as CHESS does it: first the default schedule alone, then every one with at
/// most 1 preemption (and 1 non-default value), and so on up to the bound, so a bug needing one early
/// departure is found after a few hundred schedules, not after the whole tree under the deepest
/// decisions. Each round walks its tree depth first; schedules of earlier rounds run again in later
/// ones (their subtrees hold the new ones). `exhaustedRounds` says when each bound was exhausted;
/// `isExhausted` turns true when the last one is.
///
/// Stateless between runs: each run replays a prefix of choices and extends it with defaults;
/// `finish` moves to the next unexplored branch.
public final class DFSStrategy: Strategy {
    struct Point {
        var rank: Int
        var count: Int
        /// A pick (its options other than rank 0 are preemptions), or a data choice (its options
        /// other than rank 0 are departures from the default value).
        var preemptive: Bool
        /// Candidate indices in exploration order (rank 0 is the non-preempting, `fifo` choice).
        var order: [Int]
    }

    /// A bound whose every schedule has run, and the runs it had taken by then (all rounds so far).
    public struct Round: Sendable, Hashable, Codable {
        /// The preemption bound.
        public var bound: Int
        /// Runs of the whole search when every schedule under the bound had run.
        public var runs: Int

        /// A round: `bound` exhausted after `runs` runs (as a campaign's child reports it).
        package init(bound: Int, runs: Int) {
            self.bound = bound
            self.runs = runs
        }
    }

    /// The most preemptions a schedule may have.
    public let preemptionBound: Int
    /// Runs after which the search stops without being exhausted.
    public let maxRuns: Int
    private var path: [Point] = []
    private var depth = 0
    /// The bound of the round being explored.
    public private(set) var bound = 0
    /// Runs finished so far.
    public private(set) var runs = 0
    /// True once every schedule under the bound has run.
    public private(set) var isExhausted = false
    /// The rounds finished so far, in order of bound.
    public private(set) var exhaustedRounds: [Round] = []
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

    /// Departures from the default before `index`, of picks (`preemptive`) or of data choices.
    private func departuresBefore(_ index: Int, preemptive: Bool) -> Int {
        var total = 0
        for point in path[..<index] where point.preemptive == preemptive && point.rank > 0 { total += 1 }
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
        return next(count: ready.count, preemptive: true, order: order)
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
            // Round `bound` allows that many preemptions and, apart, that many non-default data values.
            let budgetLeft = bound - departuresBefore(last, preemptive: point.preemptive)
            if point.rank + 1 < point.count && budgetLeft >= 1 {
                path[last].rank += 1
                return
            }
            path.removeLast()
        }
        exhaustedRounds.append(Round(bound: bound, runs: runs))
        if bound < preemptionBound {
            bound += 1
        } else {
            isExhausted = true
        }
    }

    /// True when another run would explore a new schedule.
    public var hasMore: Bool { !isExhausted && runs < maxRuns }
}

/// A strategy that walks a finite space of schedules, one run after another, and says when it has
/// walked it all (an `exhaustive` campaign's strategy).
public protocol ExhaustiveStrategy: Strategy {
    /// Runs are left to walk.
    var hasMore: Bool { get }
    /// The whole space (under the strategy's bound) was walked.
    var isExhausted: Bool { get }
    /// When each bound of the walk was exhausted.
    var exhaustedRounds: [DFSStrategy.Round] { get }
}

extension DFSStrategy: ExhaustiveStrategy {}
