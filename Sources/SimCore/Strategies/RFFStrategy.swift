/// `rff`: reads-from fuzzing (Wolff, Shi, Dhaliwal, Meng: "Greybox Fuzzing for Concurrency Testing",
/// ASPLOS 2024), the algorithm as its artifact runs it (dylanjwolff/RFF @ b717e06, the
/// `power-coe-always-rand-schedfuzz` configuration: `sched-fuzz/AFL-2.57b/mutator.zig` for the
/// mutations, `afl-fuzz.c` `calculate_sched_score` for the power schedule, `libsched.cpp` for how a
/// schedule is followed). Our own code, after that algorithm:
///
/// - **Feedback**: the reads-from pairs a run showed — which write each read of a shared cell
///   (`SharedCell`) saw, the initial value counting as a write. Events are identified as the artifact
///   identifies them, by code location rather than thread: here the job label (`"read a"`), so the
///   same write on nine lanes is one event. A run that shows a pair no run showed before keeps its
///   schedule in the corpus.
/// - **A schedule** is a set of reads-from *obligations* and a fresh random seed: positive (read r
///   should see write w) or negative (r should not see w). The scheduler follows them softly, as
///   libsched does, by priority tiers over partial order sampling (`POSStrategy`): for a positive
///   obligation it prefers w and holds r back until w is the cell's last write, then prefers r (and,
///   with `avoidOtherWrites`, holds other writers of the cell back); for a negative one, while w is
///   the last write it holds r back and prefers other writers. Held-back jobs still run when nothing
///   else can, so an obligation never deadlocks a run. An obligation ends at the first read at r.
/// - **Mutation** (one per schedule): insert an obligation (with probability 1/9 a positive one,
///   else a negative one), replace one, or negate one; every schedule gets a new seed. Candidate
///   pairs are every (read event, write event) of a cell seen so far, not only the pairs seen
///   together (the artifact takes them from its race predictor). Negative obligations are drawn by
///   the artifact's weight, 1.05 - the predictor's score (0: racy, 1: not); we have no predictor
///   and score a pair from the initial value 1 (nothing races with it), every other pair 0.
/// - **Power schedule** (AFLFast's COE, as in the artifact): corpus entries are fuzzed in turn; an
///   entry whose reads-from path (the set of pairs its run showed) has been seen no more often than
///   the mean over paths gets energy growing as 2^(times chosen) / mean, capped; a more frequent
///   path gets none (it is skipped), which steers the campaign to rare reads-from combinations.
///
/// The corpus carries over from run to run, so a campaign runs this strategy on one thread in seed
/// order (`StrategySpec.Kind.learnsAcrossRuns`). Without shared-cell reads there is nothing to learn
/// from: every run is then partial order sampling, and `learningNote` says so.
public final class RFFStrategy: Strategy, SharedAccessObserver, CampaignLearner {
    /// A reads-from pair: a read event of a cell and the write event it saw (0: the initial value).
    /// An event is a job label (the stand-in for the artifact's instruction address: the same code on
    /// two lanes is one event), hashed, never 0.
    struct Pair: Hashable {
        var cell: UInt64
        var read: UInt64
        var write: UInt64
    }

    /// One obligation: the pair (an index into `pool`), positive or negative.
    struct Obligation: Hashable {
        var pair: Int
        var positive: Bool
    }

    /// A schedule: its obligations and whether writers other than the wanted one are held back.
    struct Plan {
        var obligations: [Obligation] = []
        var avoidOtherWrites = true
    }

    struct Entry {
        var plan: Plan
        var path: UInt64
        var level = 0
    }

    /// The most energy (runs) one corpus entry gets in one turn.
    public let maxEnergy: Int
    @exclusivity(unchecked) private var random = SplitMix64(seed: 0)
    @exclusivity(unchecked) private var buggify = BuggifyPolicy()

    // Across runs.
    private(set) var pool: [Pair] = []
    private var poolIndex: [Pair: Int] = [:]
    /// Runs that showed each pair of the pool (0: predicted, never seen).
    private var hits: [Int] = []
    /// Per cell: read sites and write sites seen (write site 0, the initial value, always first).
    private var readSites: [UInt64: [UInt64]] = [:]
    private var writeSites: [UInt64: [UInt64]] = [:]
    private var corpus: [Entry] = []
    private var pathCounts: [UInt64: Int] = [:]
    private var runs = 0
    private var cursor = -1
    /// Runs left in the current entry's turn (readable in the module: tests check the power schedule).
    private(set) var energy = 0
    private var adjust = 1
    private var reads = 0

    // Per run.
    /// The run's schedule (readable in the module: tests check that a run follows it).
    private(set) var plan = Plan()
    private var ended: [Bool] = []
    private var lastWriter: [UInt64: UInt64] = [:]
    private var shown: [Int] = []
    private var shownFlag: [Bool] = []
    private var priorities: [UInt64: UInt64] = [:]
    private var accesses = JobAccessCache()

    /// An empty corpus; each entry runs at most `maxEnergy` schedules per turn.
    public init(maxEnergy: Int = 64) {
        self.maxEnergy = max(1, maxEnergy)
    }

    /// `rff`.
    public var description: String { "rff" }

    /// Corpus entries kept so far (for tests and reports).
    public var corpusCount: Int { corpus.count }
    /// Distinct reads-from pairs shown so far.
    public var pairCount: Int { hits.count { $0 > 0 } }

    /// Seeds the run and takes its schedule: a mutation of the corpus entry whose turn it is.
    public func start(seed: UInt64, symbols: SymbolTable) {
        random = SplitMix64(seed: seed)
        buggify.start(&random)
        priorities.removeAll(keepingCapacity: true)
        accesses.reset()
        lastWriter.removeAll(keepingCapacity: true)
        shown.removeAll(keepingCapacity: true)
        shownFlag = Array(repeating: false, count: pool.count)
        if corpus.isEmpty {
            plan = Plan()
        } else {
            if energy <= 0 { nextTurn() }
            energy -= 1
            plan = mutate(corpus[cursor].plan)
        }
        ended = Array(repeating: false, count: plan.obligations.count)
    }

    /// Moves to the next corpus entry with energy (COE: entries on frequent paths get none).
    private func nextTurn() {
        let paths = max(1, pathCounts.count)
        for _ in 0..<(2 * corpus.count + 2) {
            cursor = (cursor + 1) % corpus.count
            let mean = runs / paths + adjust
            let entry = corpus[cursor]
            guard (pathCounts[entry.path] ?? 0) <= mean else { continue }
            corpus[cursor].level = min(entry.level + 1, 30)
            let factor = (1 << corpus[cursor].level) / mean
            guard factor > 0 else { continue }
            energy = min(maxEnergy, factor * max(1, maxEnergy / 3))
            return
        }
        // Every entry was skipped: loosen the mean, as the artifact does, and give this one a run.
        adjust += 1
        energy = 1
    }

    private func mutate(_ parent: Plan) -> Plan {
        var child = parent
        let candidates = pool.count
        // One mutation, drawn until one applies (the artifact's loop): insert, replace, negate, reseed.
        mutation: while true {
            switch random.below(4) {
            case 0 where child.obligations.count < candidates:
                if let added = draw(excluding: child) { child.obligations.append(added) }
                break mutation
            case 1 where !child.obligations.isEmpty && child.obligations.count < candidates:
                let index = random.below(child.obligations.count)
                if let added = draw(excluding: child) { child.obligations[index] = added }
                break mutation
            case 2 where !child.obligations.isEmpty:
                child.obligations[random.below(child.obligations.count)].positive.toggle()
                break mutation
            case 3:
                break mutation
            default:
                continue
            }
        }
        // Always a new seed (the run's own); one time in four, flip whether other writers are held back.
        if random.below(4) == 0 { child.avoidOtherWrites.toggle() }
        return child
    }

    /// A new obligation not in `plan`: one time in nine positive and uniform over the pool, else
    /// negative and drawn by the artifact's weights, 1.05 - score with score 0 for a racy pair and 1
    /// for one that is not: a pair whose write is the initial value cannot race (the initial value
    /// is there before any job runs), every other candidate pair counts as racy.
    private func draw(excluding plan: Plan) -> Obligation? {
        let taken = Set(plan.obligations.map(\.pair))
        guard taken.count < pool.count else { return nil }
        for _ in 0..<64 {
            let positive = random.below(9) == 0
            let index: Int
            if positive {
                index = random.below(pool.count)
            } else {
                // In hundredths: 105 for a racy pair, 5 for one from the initial value.
                var total = 0
                for pair in pool { total += pair.write == 0 ? 5 : 105 }
                var ticket = random.below(total)
                var chosen = 0
                while ticket >= (pool[chosen].write == 0 ? 5 : 105) {
                    ticket -= pool[chosen].write == 0 ? 5 : 105
                    chosen += 1
                }
                index = chosen
            }
            if !taken.contains(index) { return Obligation(pair: index, positive: positive) }
        }
        return nil
    }

    /// Partial order sampling with the obligations' tiers: preferred jobs first, held-back ones last.
    public func pick(_ ready: ReadySet) -> Int {
        let symbols = ready.symbols
        var best = 0
        var bestTier = -1
        var bestPriority: UInt64 = 0
        for index in ready.indices {
            let candidate = ready[index]
            let priority: UInt64
            if let known = priorities[candidate.seq] {
                priority = known
            } else {
                priority = random.next()
                priorities[candidate.seq] = priority
            }
            let tier = plan.obligations.isEmpty ? 1 : tier(of: symbols.contentHash(candidate.label) | 1)
            if tier > bestTier || (tier == bestTier && priority > bestPriority) {
                best = index
                bestTier = tier
                bestPriority = priority
            }
        }
        // POS: the jobs that race with the one chosen draw fresh priorities.
        let chosen = accesses.access(ready[best].label, in: symbols)
        priorities[ready[best].seq] = nil
        for index in ready.indices where index != best {
            if chosen.races(with: accesses.access(ready[index].label, in: symbols)) {
                priorities[ready[index].seq] = random.next()
            }
        }
        return best
    }

    /// 2: preferred by an obligation and held back by none; 0: held back and preferred by none; else 1.
    private func tier(of site: UInt64) -> Int {
        var take = false
        var avoid = false
        for (number, obligation) in plan.obligations.enumerated() where !ended[number] {
            let pair = pool[obligation.pair]
            let last = lastWriter[pair.cell] ?? 0
            let otherWriter = site != pair.write && (writeSites[pair.cell]?.contains(site) ?? false)
            if obligation.positive {
                if last == pair.write {
                    if site == pair.read { take = true }
                    if plan.avoidOtherWrites && otherWriter { avoid = true }
                } else {
                    if site == pair.write { take = true }
                    if site == pair.read { avoid = true }
                }
            } else {
                if last == pair.write {
                    if site == pair.read { avoid = true }
                    if otherWriter { take = true }
                } else if plan.avoidOtherWrites && site == pair.write {
                    avoid = true
                }
            }
        }
        return take == avoid ? 1 : (take ? 2 : 0)
    }

    /// A uniform data choice from the run's generator (buggify by the swarm rule).
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        if kind == .buggify { return buggify.fires(site, &random) ? 1 : 0 }
        return random.below(count)
    }

    /// Records the pair a read showed (and the candidate pairs a new event brings), ends the
    /// obligations on that read, and tracks each cell's last writer.
    public func observeAccess(_ access: SharedAccess) {
        let cell = access.cell
        let site = access.label | 1
        let isWrite = access.isWrite
        let readsFrom = access.fromLane == 0 && access.fromLabel == 0 ? 0 : access.fromLabel | 1
        if isWrite {
            lastWriter[cell] = site
            if !(writeSites[cell]?.contains(site) ?? false) {
                if writeSites[cell] == nil { writeSites[cell] = [0] }
                writeSites[cell]?.append(site)
                for read in readSites[cell] ?? [] { _ = add(Pair(cell: cell, read: read, write: site)) }
            }
            return
        }
        reads += 1
        if !(readSites[cell]?.contains(site) ?? false) {
            readSites[cell, default: []].append(site)
            if writeSites[cell] == nil { writeSites[cell] = [0] }
            for write in writeSites[cell] ?? [] { _ = add(Pair(cell: cell, read: site, write: write)) }
        }
        let index = add(Pair(cell: cell, read: site, write: readsFrom))
        if !shownFlag[index] {
            shownFlag[index] = true
            shown.append(index)
        }
        for (number, obligation) in plan.obligations.enumerated() where !ended[number] {
            let pair = pool[obligation.pair]
            if pair.cell == cell && pair.read == site { ended[number] = true }
        }
    }

    private func add(_ pair: Pair) -> Int {
        if let known = poolIndex[pair] { return known }
        let index = pool.count
        pool.append(pair)
        poolIndex[pair] = index
        hits.append(0)
        shownFlag.append(false)
        return index
    }

    /// Counts the run's path and keeps its schedule when it showed a pair no run showed before.
    public func finish(steps: Int) {
        runs += 1
        guard !shown.isEmpty else { return }
        var isNew = false
        var digest = Digest()
        for index in shown.sorted() {
            if hits[index] == 0 { isNew = true }
            hits[index] += 1
            digest.mix(UInt64(index))
        }
        let path = digest.value
        pathCounts[path, default: 0] += 1
        if isNew { corpus.append(Entry(plan: plan, path: path)) }
    }

    /// What the campaign learned from, or why it could not learn.
    public var learningNote: String? {
        guard runs > 0 else { return nil }
        if reads == 0 {
            return
                "rff cannot learn here: no run read a shared cell (SharedCell), so there were no reads-from pairs and every run was partial order sampling"
        }
        return "rff learned from \(pairCount) reads-from pairs (\(corpus.count) kept schedules)"
    }
}
