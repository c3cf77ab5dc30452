/// `surw`: the selectively uniform random walk as published (Zhao, Wolff, Mathur, Roychoudhury:
/// "Selectively Uniform Concurrency Testing", ASPLOS 2025; the algorithm as its artifact runs it,
/// zhaohuanqdcn/SURW @ 2a4c5de, `configs/rp-urw.json`: interesting events by memory address, `urw`
/// over them, random priorities for the rest).
///
/// - **Profiling.** The first run of a campaign is a plain random walk that counts, per lane, its
///   accesses to each shared cell (`SharedCell`, seen through `SharedAccessObserver`) and which lane
///   started which (a lane first offered right after another lane's job ran was started by it). A
///   cell is a candidate when at least max(2, lanes / 2) lanes touch it and someone writes it — the
///   artifact's rule (`scripts/get_var_count.py`).
/// - **Each later run** draws one candidate cell, weighted by its access count; the *interesting*
///   events are the jobs whose site (lane and label) touched that cell in the profile. Each lane's
///   weight is its profiled count of those events plus its descendants' (a lane's children are
///   counted in it until it starts them; when it does, the pending selection moves to a child with
///   probability child's count / parent's count, and the parent's count drops by the child's).
/// - **Picking.** Uninteresting jobs run by random priority (a lane keeps a random priority until it
///   runs). When the job so chosen is interesting, one lane is *selected* with probability its
///   remaining count / the total over the ready lanes (the uniform walk over interleavings of the
///   interesting events); interesting jobs of other lanes are held back until the selected lane's
///   interesting event has run (then every lane is released and the next one is selected). When
///   every ready job is held back the hold is released.
///
/// The profile carries over from run to run, so a campaign runs this strategy on one thread in seed
/// order (`StrategySpec.Kind.learnsAcrossRuns`). A program with no candidate cell (no shared cells,
/// or none touched by enough lanes) has no interesting events: the walk is then random-priority
/// only, and `learningNote` says so.
public final class SURWStrategy: Strategy, SharedAccessObserver, CampaignLearner {
    @exclusivity(unchecked) private var random = SplitMix64(seed: 0)
    @exclusivity(unchecked) private var buggify = BuggifyPolicy()

    /// The profile of the first run: accesses per (cell, lane), sites per cell, lane parents.
    private var profiled = false
    private var profiling = false
    /// Cells in the order first seen (a deterministic order to draw from).
    private(set) var cellOrder: [UInt64] = []
    private var cellIndex: [UInt64: Int] = [:]
    /// Per cell: accesses per lane (lane hash → count), lanes in first-seen order, writes seen.
    private var cellLanes: [[UInt64: Int]] = []
    private var cellLaneOrder: [[UInt64]] = []
    private var cellWritten: [Bool] = []
    /// Per cell: the sites (lane and label) that touched it.
    private var cellSites: [Set<UInt64>] = []
    /// Lanes in first-seen order, and each lane's parent (the lane that started it), by name hash.
    private var laneOrder: [UInt64] = []
    private var parent: [UInt64: UInt64] = [:]
    /// Candidate cells (indices into `cellOrder`) and their draw weights (total accesses). Readable
    /// in the module (tests check the published rule and weights); set only here.
    private(set) var candidates: [Int] = []
    private(set) var candidateWeights: [Int] = []

    // Per run.
    private(set) var target: Int?
    private var left: [UInt64: Int] = [:]
    private var seenLanes: Set<UInt64> = []
    private var priority: [UInt64: UInt64] = [:]
    private var held: Set<UInt64> = []
    private var selected: UInt64?
    private var lastLane: UInt64?

    /// A selective walk that has not profiled the program yet.
    public init() {}
    /// `surw`.
    public var description: String { "surw" }

    /// Seeds the run; after the profiling run, draws the run's target cell and sets each lane's count.
    public func start(seed: UInt64, symbols: SymbolTable) {
        random = SplitMix64(seed: seed)
        buggify.start(&random)
        profiling = !profiled
        priority.removeAll(keepingCapacity: true)
        held.removeAll(keepingCapacity: true)
        seenLanes.removeAll(keepingCapacity: true)
        left.removeAll(keepingCapacity: true)
        selected = nil
        lastLane = nil
        target = nil
        guard !profiling, !candidates.isEmpty else { return }
        var ticket = random.below(candidateWeights.reduce(0, +))
        var chosen = 0
        while ticket >= candidateWeights[chosen] {
            ticket -= candidateWeights[chosen]
            chosen += 1
        }
        let cell = candidates[chosen]
        target = cell
        // Each lane counts its own events on the target plus its descendants' (children first).
        let own = cellLanes[cell]
        for lane in laneOrder.reversed() {
            left[lane, default: 0] += own[lane] ?? 0
            if let up = parent[lane] { left[up, default: 0] += left[lane] ?? 0 }
        }
    }

    private func isInteresting(_ candidate: Candidate, _ symbols: SymbolTable) -> Bool {
        guard let target else { return false }
        return cellSites[target].contains(
            Simulation.accessSite(lane: candidate.lane, label: candidate.label, in: symbols))
    }

    /// A random-priority pick, gated by the uniform walk when the job picked is interesting.
    public func pick(_ ready: ReadySet) -> Int {
        let symbols = ready.symbols
        var lanes: [UInt64] = []
        lanes.reserveCapacity(ready.count)
        for index in ready.indices { lanes.append(symbols.contentHash(ready[index].lane)) }
        // The lane that ran the step before: the continuing one when it is still ready (steps with one
        // candidate are never offered to a strategy), else the one this strategy picked last.
        if let continuing = ready.continuingIndex { lastLane = lanes[continuing] }
        noteNewLanes(lanes)
        if profiling {
            let chosen = random.below(ready.count)
            lastLane = lanes[chosen]
            return chosen
        }
        while true {
            // Random priority among the jobs not held back.
            var best: Int?
            var bestPriority: UInt64 = 0
            for index in ready.indices where !held.contains(lanes[index]) {
                let value: UInt64
                if let known = priority[lanes[index]] {
                    value = known
                } else {
                    value = random.next()
                    priority[lanes[index]] = value
                }
                if best == nil || value > bestPriority {
                    best = index
                    bestPriority = value
                }
            }
            guard let chosen = best else {
                // Everything is held back (the selected lane cannot run now): release and select anew.
                held.removeAll(keepingCapacity: true)
                selected = nil
                continue
            }
            let lane = lanes[chosen]
            guard isInteresting(ready[chosen], symbols) else {
                priority[lane] = nil
                return finishPick(chosen, lane)
            }
            if (left[lane] ?? 0) == 0 { left[lane] = 1 }
            if selected == nil { selected = select(lanes) }
            guard selected == lane else {
                held.insert(lane)
                continue
            }
            // Its count drops as its accesses to the target happen (`observeAccess`), picked or not.
            selected = nil
            held.removeAll(keepingCapacity: true)
            return finishPick(chosen, lane)
        }
    }

    private func finishPick(_ index: Int, _ lane: UInt64) -> Int {
        lastLane = lane
        return index
    }

    /// A ready lane (not held back) with probability its remaining count over the total.
    private func select(_ lanes: [UInt64]) -> UInt64? {
        var total = 0
        for lane in lanes where !held.contains(lane) { total += left[lane] ?? 0 }
        guard total > 0 else { return nil }
        var ticket = random.below(total)
        for lane in lanes where !held.contains(lane) {
            let weight = left[lane] ?? 0
            if ticket < weight { return lane }
            ticket -= weight
        }
        return nil
    }

    /// Lanes offered for the first time this run were started by the lane that ran last: profiling
    /// records that; later runs hand the selection over to a child as the artifact does at a fork.
    private func noteNewLanes(_ lanes: [UInt64]) {
        for lane in lanes where seenLanes.insert(lane).inserted {
            if profiling {
                if parent[lane] == nil && !laneOrder.contains(lane) {
                    laneOrder.append(lane)
                    if let lastLane, lastLane != lane { parent[lane] = lastLane }
                }
                continue
            }
            guard let up = lastLane, up != lane, target != nil else { continue }
            let child = left[lane] ?? 0
            let parentCount = left[up] ?? 0
            if selected == up && parentCount > 0 && child >= random.below(parentCount) + 1 { selected = lane }
            left[up] = max(0, parentCount - child)
        }
    }

    /// A uniform data choice from the run's generator (buggify by the swarm rule).
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        if kind == .buggify { return buggify.fires(site, &random) ? 1 : 0 }
        return random.below(count)
    }

    /// Profiling: counts the access by its lane and site. Later runs: an access to the target cell
    /// uses up one of its lane's interesting events (the artifact counts events, not jobs).
    public func observeAccess(_ access: SharedAccess) {
        let (cell, runningLane, site, isWrite) = (access.cell, access.lane, access.site, access.isWrite)
        guard profiling else {
            if let target, cellOrder[target] == cell, let count = left[runningLane], count > 0 {
                left[runningLane] = count - 1
            }
            return
        }
        let index: Int
        if let known = cellIndex[cell] {
            index = known
        } else {
            index = cellOrder.count
            cellIndex[cell] = index
            cellOrder.append(cell)
            cellLanes.append([:])
            cellLaneOrder.append([])
            cellWritten.append(false)
            cellSites.append([])
        }
        if cellLanes[index][runningLane] == nil { cellLaneOrder[index].append(runningLane) }
        cellLanes[index][runningLane, default: 0] += 1
        cellSites[index].insert(site)
        if isWrite { cellWritten[index] = true }
    }

    /// After the profiling run: the candidate cells, by the artifact's rule.
    public func finish(steps: Int) {
        guard profiling else { return }
        profiling = false
        profiled = true
        let needed = max(2, laneOrder.count / 2)
        for index in cellOrder.indices where cellWritten[index] && cellLaneOrder[index].count >= needed {
            candidates.append(index)
            candidateWeights.append(cellLaneOrder[index].reduce(0) { $0 + (cellLanes[index][$1] ?? 0) })
        }
    }

    /// What the profile found to be selective about, or why the walk cannot be selective here.
    public var learningNote: String? {
        guard profiled else { return nil }
        if candidates.isEmpty {
            return cellOrder.isEmpty
                ? "surw cannot select events here: the profiling run touched no shared cell (SharedCell), so every run was a random-priority walk"
                : "surw cannot select events here: no shared cell is written and touched by max(2, lanes/2) lanes, so every run was a random-priority walk"
        }
        return
            "surw selected from \(candidates.count) shared cell\(candidates.count == 1 ? "" : "s") touched by \(laneOrder.count) lanes in its profiling run"
    }
}

/// A strategy that learns across the runs of a campaign and can say what it learned from, or why it
/// could not (shown once per campaign, in the report and in `--json`).
public protocol CampaignLearner: AnyObject {
    /// One line: what the strategy learned from, or why it could not learn; nil before any run.
    var learningNote: String? { get }
}
