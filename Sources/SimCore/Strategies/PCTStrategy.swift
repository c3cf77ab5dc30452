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
    // Internal, not private, so that a debug test can break the invariants and see them trap.
    @exclusivity(unchecked) var priorities: [Symbol: Int] = [:]
    /// Lanes given an initial priority this run: the low bits of each priority, so that no two tie.
    @exclusivity(unchecked) private var lanesSeen = 0
    /// Distinct steps, ascending, at which the running lane is demoted.
    var changePoints: [Int] = []
    var changesMade = 0
    /// The run length the strategy spreads its choices over: the fifo probe's steps once learned.
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
        lanesSeen = 0
        changePoints = drawChangePoints()
        changesMade = 0
    }

    /// `depth - 1` distinct steps below the estimate (all of them when the estimate is smaller),
    /// drawn without replacement as Shuttle does: a repeated step would spend two demotions at once
    /// and explore depth `d - 1` while reporting `d`. A repeat is redrawn, so a draw without repeats
    /// gives the same points as before.
    private func drawChangePoints() -> [Int] {
        let wanted = min(depth - 1, estimatedSteps)
        var points: [Int] = []
        points.reserveCapacity(wanted)
        while points.count < wanted {
            let point = random.below(estimatedSteps)
            if !points.contains(point) { points.append(point) }
        }
        points.sort()
        return points
    }

    private func priority(of lane: Symbol) -> Int {
        if let known = priorities[lane] { return known }
        // Initial priorities sit above every change-point priority (0..<depth), and are distinct
        // (Shuttle keeps them so): a random draw in the high bits orders the lanes, the lane's
        // arrival number in the low 32 bits breaks what would be a tie. A set of the priorities
        // handed out, to redraw ties, cost 4% of a lost-input run.
        let assigned = depth + ((random.below(1 << 30) << 32) | (lanesSeen & 0xFFFF_FFFF))
        lanesSeen += 1
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
            // Two lanes never share a priority; one lane can be listed twice (its head and a due
            // timer), and then posting order decides.
            assert(
                p != bestPriority || candidate.lane == ready[best].lane,
                "PCT invariant broken: two lanes share priority \(p)")
            if p > bestPriority || (p == bestPriority && candidate.seq < ready[best].seq) {
                best = index
                bestPriority = p
            }
        }
        while changesMade < changePoints.count && changePoints[changesMade] <= ready.step {
            assert(
                changesMade == 0 || changePoints[changesMade - 1] < changePoints[changesMade],
                "PCT invariant broken: change points repeat or are unsorted: \(changePoints)")
            // Demote the lane about to run below every other (to a priority no lane holds), then
            // pick again among the rest.
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
