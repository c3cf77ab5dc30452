/// Wraps a strategy and writes down the run it makes as a `Schedule`: each decision by the identity
/// of the job taken, the job `fifo` would have taken and the older jobs it went ahead of, or by site
/// and that site's ordinal. How a positional tape becomes an identity-keyed schedule (re-run it on
/// the code that recorded it through this observer), and how the shrinker reads each candidate run.
public final class ScheduleObserver: Strategy {
    /// The strategy that makes the choices.
    public let inner: any Strategy
    /// Also keep every ready job of a departing pick (the alternatives the shrinker tries).
    public let keepsReadySets: Bool
    /// The last run's schedule, one entry per decision.
    public private(set) var schedule = Schedule()
    /// Every job the last run offered at a pick, taken or not (with the jobs it ran, the jobs a
    /// replay of the schedule should not take for new work).
    public private(set) var offered: Set<JobKey> = []
    private var symbols = SymbolTable()
    private var siteCounts: [String: UInt32] = [:]

    /// Observes `inner`; `keepsReadySets` for the shrinker.
    public init(_ inner: any Strategy, keepsReadySets: Bool = false) {
        self.inner = inner
        self.keepsReadySets = keepsReadySets
    }

    /// The observed strategy's description: observing changes no choice.
    public var description: String { inner.description }

    /// Starts the observed strategy and a fresh record of this run's schedule.
    public func start(seed: UInt64, symbols: SymbolTable) {
        self.symbols = symbols
        schedule = Schedule()
        offered.removeAll(keepingCapacity: true)
        siteCounts.removeAll(keepingCapacity: true)
        inner.start(seed: seed, symbols: symbols)
    }

    /// Lets the observed strategy pick, and records the pick by identity with the jobs it went ahead of.
    public func pick(_ ready: ReadySet) -> Int {
        let chosen = inner.pick(ready)
        let table = ready.symbols
        func key(_ index: Int) -> JobKey {
            JobKey(lane: table[ready[index].lane], label: table[ready[index].label], ordinal: ready[index].ordinal)
        }
        for index in ready.indices { offered.insert(key(index)) }
        let deviates = chosen != ready.fifoIndex
        var overtaken: [JobKey] = []
        var alternatives: [JobKey] = []
        if deviates || keepsReadySets {
            let takenSeq = ready[chosen].seq
            let oldestFirst = ready.indices.sorted { ready[$0].seq < ready[$1].seq }
            if deviates { overtaken = oldestFirst.filter { ready[$0].seq < takenSeq }.map(key) }
            // Every pick's alternatives, fifo ones too: the shrinker tries departures the run never took.
            if keepsReadySets { alternatives = oldestFirst.map(key) }
        }
        schedule.entries.append(
            Schedule.Entry(
                number: schedule.entries.count + 1, kind: .pick, job: key(chosen), fifo: key(ready.fifoIndex),
                overtaken: overtaken, ready: alternatives, chosen: UInt32(chosen), count: UInt32(ready.count),
                isDeviation: deviates))
        return chosen
    }

    /// Lets the observed strategy choose, and records the choice by site and per-site ordinal.
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        let chosen = inner.choose(count, kind: kind, site: site)
        let text = symbols[site]
        let ordinal = (siteCounts[text] ?? 0) + 1
        siteCounts[text] = ordinal
        schedule.entries.append(
            Schedule.Entry(
                number: schedule.entries.count + 1, kind: kind, job: JobKey(lane: "", label: text, ordinal: ordinal),
                chosen: UInt32(chosen), count: UInt32(count), isDeviation: chosen != 0))
        return chosen
    }

    /// Passes the end of the run on to the observed strategy.
    public func finish(steps: Int) { inner.finish(steps: steps) }
    /// The observed strategy's notes.
    public var notes: [String] { inner.notes }
}
