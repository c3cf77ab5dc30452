/// Delay-bounded scheduling (after Emmi, Qadeer, Rakamarić, POPL 2011): follow `fifo`, except at up
/// to `delays` random steps, where the job `fifo` would take is delayed: held back until nothing
/// else is ready (then the held jobs run, oldest first).
///
/// Holding the job back for good, rather than passing it over once for one random other job, is what
/// makes one delay enough for a race in a busy run: background work (timers, tasks, `--noise` lanes)
/// fills the ready set, and a single pass-over mostly lets an irrelevant job through, after which
/// the delayed job is `fifo` again.
public final class DelayBoundedStrategy: Strategy {
    /// How many times per run the `fifo` job may be passed over.
    public let delays: Int
    @exclusivity(unchecked) private var random = SplitMix64(seed: 0)
    @exclusivity(unchecked) private var buggify = BuggifyPolicy()
    private var delayPoints: [Int] = []
    private var used = 0
    /// Jobs delayed in this run (by identity): passed over while anything else is ready.
    private var held: [Held] = []
    /// The run length the strategy spreads its choices over: the fifo probe's steps once learned.
    private(set) public var estimatedSteps: Int

    private struct Held: Equatable {
        var lane: Symbol
        var label: Symbol
        var ordinal: UInt32

        init(_ candidate: Candidate) {
            lane = candidate.lane
            label = candidate.label
            ordinal = candidate.ordinal
        }
    }

    /// At most `delays` delays per run, spread over a horizon derived from `estimatedSteps` and the seed.
    public init(delays: Int = 2, estimatedSteps: Int = 64) {
        precondition(delays >= 0, "delay bound must not be negative")
        self.delays = delays
        self.estimatedSteps = max(estimatedSteps, 1)
    }

    /// `delay:bound=B`.
    public var description: String { "delay:bound=\(delays)" }

    /// The most steps a horizon may span (the scenario's step limit, set by the plan).
    public var maxHorizon = Int.max

    /// The steps seed `seed` spreads its delays over: the estimate (the fifo probe's length) times
    /// 1, 2 or 4 in turn, capped at `maxHorizon`. Runs off the fifo path (a fault fifo never
    /// injects, a retry) can be much longer than the probe, and delays drawn from its length alone
    /// never reach their late races. A function of the seed only — no probe runs (a scenario that
    /// traps would take the process down), nothing learned from earlier runs, so a seed's schedule
    /// never depends on `--jobs`.
    public func horizon(for seed: UInt64) -> Int {
        let (scaled, overflow) = estimatedSteps.multipliedReportingOverflow(by: 1 << Int(seed % 3))
        return max(1, min(overflow ? Int.max : scaled, maxHorizon))
    }

    /// Draws the steps at which this run delays, over the seed's horizon.
    public func start(seed: UInt64, symbols: SymbolTable) {
        random = SplitMix64(seed: seed)
        buggify.start(&random)
        let horizon = horizon(for: seed)
        delayPoints = (0..<delays).map { _ in random.below(horizon) }.sorted()
        used = 0
        held.removeAll(keepingCapacity: true)
    }

    /// The oldest ready job that is not held back, if any.
    private func oldestFree(_ ready: ReadySet) -> Int? {
        var best: Int?
        for index in ready.indices where !held.contains(Held(ready[index])) {
            if let current = best, ready[current].seq < ready[index].seq { continue }
            best = index
        }
        return best
    }

    /// The `fifo` job, except at a delay step, where another ready job runs.
    public func pick(_ ready: ReadySet) -> Int {
        var delayHere = false
        while used < delayPoints.count && delayPoints[used] <= ready.step {
            used += 1
            delayHere = true
        }
        guard delayHere || !held.isEmpty else { return ready.fifoIndex }
        guard var choice = oldestFree(ready) else { return ready.fifoIndex }
        if delayHere {
            if random.chance(0.5) {
                held.append(Held(ready[choice]))
                choice = oldestFree(ready) ?? ready.fifoIndex
            } else {
                let other = random.below(ready.count - 1)
                choice = other >= choice ? other + 1 : other
            }
        }
        return choice
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
