/// A coverage-guided mode in the spirit of reads-from fuzzing (Meng et al., ASPLOS 2024): a run's
/// coverage is the set of *reads-from pairs* it showed (which write each shared-cell read saw, by
/// site; see `SharedCell`). A schedule that showed a pair no earlier run had is kept in a corpus;
/// later runs take a kept schedule, follow its picks up to a random cut, and walk randomly from
/// there. So a bug that needs a rare pair and then more is reached step by step, where a random walk
/// must hit the whole sequence at once.
///
/// The corpus carries over from run to run, so a campaign runs this strategy on one thread in seed
/// order (`StrategySpec.Kind.learnsAcrossRuns`): a seed's schedule depends on the seed range before
/// it, never on `--jobs`. Scenarios without shared cells show no pairs, and the mode is then a random
/// walk.
public final class CoverageGuidedStrategy: Strategy, ReadsFromObserver, CampaignLearner {
    /// How many kept schedules the corpus holds at most (the oldest go first).
    public let corpusLimit: Int
    @exclusivity(unchecked) private var random = SplitMix64(seed: 0)
    @exclusivity(unchecked) private var buggify = BuggifyPolicy()
    /// Pairs some run has shown (membership only: never iterated).
    private var seen: Set<UInt64> = []
    private var corpus: [[UInt32]] = []
    private var prefix: ArraySlice<UInt32> = []
    private var picks: [UInt32] = []
    private var newPairs = 0
    /// Runs finished so far.
    private var runs = 0

    /// An empty corpus that keeps at most `corpusLimit` schedules (at least 1).
    public init(corpusLimit: Int = 256) {
        self.corpusLimit = max(1, corpusLimit)
    }

    /// `coverage`.
    public var description: String { "coverage" }

    /// Kept schedules now (for tests and reports).
    public var corpusCount: Int { corpus.count }
    /// Distinct reads-from pairs shown so far.
    public var pairCount: Int { seen.count }

    /// Seeds the run and picks its prefix: a random cut of a kept schedule, or none one run in eight.
    public func start(seed: UInt64, symbols: SymbolTable) {
        random = SplitMix64(seed: seed)
        buggify.start(&random)
        picks.removeAll(keepingCapacity: true)
        newPairs = 0
        // One run in eight explores afresh, so that pairs no kept schedule leads to stay reachable.
        if corpus.isEmpty || random.below(8) == 0 {
            prefix = []
        } else {
            let parent = corpus[random.below(corpus.count)]
            prefix = parent[0..<random.below(parent.count + 1)]
        }
    }

    /// The prefix's pick while it lasts and fits, then a uniform one.
    public func pick(_ ready: ReadySet) -> Int {
        let position = picks.count
        let chosen: Int
        if position < prefix.count, Int(prefix[prefix.startIndex + position]) < ready.count {
            chosen = Int(prefix[prefix.startIndex + position])
        } else {
            chosen = random.below(ready.count)
        }
        picks.append(UInt32(chosen))
        return chosen
    }

    /// A uniform data choice from the run's generator (buggify by the swarm rule).
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        if kind == .buggify { return buggify.fires(site, &random) ? 1 : 0 }
        return random.below(count)
    }

    /// Counts a reads-from pair the run showed, if no run showed it before.
    public func observeReadsFrom(_ pair: UInt64) {
        if seen.insert(pair).inserted { newPairs += 1 }
    }

    /// Keeps the run's schedule when it showed a new pair.
    public func finish(steps: Int) {
        runs += 1
        guard newPairs > 0 else { return }
        if corpus.count == corpusLimit { corpus.removeFirst() }
        corpus.append(picks)
    }
}

extension CoverageGuidedStrategy {
    /// What the corpus learned from, or, when no run showed a reads-from pair (a scenario without
    /// shared-cell reads: plain async code, most app scenarios), that every run was a random walk.
    public var learningNote: String? {
        guard runs > 0 else { return nil }
        if seen.isEmpty {
            return "coverage cannot learn here: no run showed a reads-from pair (no SharedCell read), so every run was a random walk"
        }
        return "coverage learned from \(seen.count) reads-from pair\(seen.count == 1 ? "" : "s") (\(corpus.count) kept schedule\(corpus.count == 1 ? "" : "s"))"
    }
}
