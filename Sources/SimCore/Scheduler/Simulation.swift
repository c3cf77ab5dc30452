/// One run of a scenario: lanes of jobs, timers on a virtual clock, oracles, and a strategy that makes
/// every choice. Confined to one thread; nothing in it reads the wall clock or the system's randomness.
///
/// A simulation is `@unchecked Sendable` only so that async code running *inside* it (on its task
/// executors, hence on its thread) can refer to it. It must never be touched from another thread.
public final class Simulation: @unchecked Sendable {
    /// The seed the strategy was started with.
    public let seed: UInt64
    /// Interned names of lanes, labels, event kinds and field keys for this run.
    public let symbols: SymbolTable
    /// What picks the next job and answers every data decision.
    public let strategy: any Strategy
    /// Where every event goes (a trace writer, a comparer, or nothing).
    public let sink: any EventSink
    /// The step and virtual-time bounds of this run.
    public let limits: RunLimits
    /// The sink is a `NullSink`: skip the call per event.
    let sinkDiscards: Bool

    // Exclusivity is enforced by construction, not at run time: a simulation is confined to one
    // thread and no access to these properties spans a call out of the kernel (job bodies, strategies
    // and sinks run between accesses). The dynamic checks were ~40% of the kernel's instructions.

    /// Virtual nanoseconds since the start of the run.
    @exclusivity(unchecked) public package(set) var now: Int64 = 0
    /// Jobs run so far.
    @exclusivity(unchecked) public package(set) var steps = 0
    /// Events emitted so far.
    @exclusivity(unchecked) public internal(set) var eventCount: UInt64 = 0
    /// A running hash of every event, to compare runs without keeping them.
    @exclusivity(unchecked) public internal(set) var digest = Digest()
    /// The decisions made so far, in order (not all kept when `retainsTape` is off).
    @exclusivity(unchecked) public internal(set) var decisions: [Decision] = []
    /// Whether `decisions` (and so the result's tape) keeps every decision. A long recording whose
    /// tape lives in its trace turns this off so that memory stays flat however long the run.
    @exclusivity(unchecked) public var retainsTape = true
    /// A running hash of every decision made so far (its kind, the option taken, the options offered):
    /// two runs of one scenario with the same schedule digest made the same decisions, so ran the
    /// same schedule (``RunResult/scheduleDigest``).
    @exclusivity(unchecked) public internal(set) var scheduleDigest = Digest()
    /// What the run saw but did not control so far (``noteUncontrolled(_:_:at:)``), each distinct
    /// observation once, in the order first seen.
    @exclusivity(unchecked) public internal(set) var uncontrolled: [Uncontrolled] = []

    @exclusivity(unchecked) var lanes = LaneTable()
    /// Each lane's index by its name's symbol id, -1 where that symbol names no lane: an array
    /// grown by appending (amortized, so no allocation per new lane), where a `[Symbol: Int32]`
    /// hashed twice per lane an actor's drain job makes.
    @exclusivity(unchecked) var laneIndexBySymbol: [Int32] = []
    @exclusivity(unchecked) var timers = TimerQueue()
    @exclusivity(unchecked) var due: [PendingTimer] = []
    @exclusivity(unchecked) var cancelledTimers: Set<UInt64> = []
    @exclusivity(unchecked) package var nextSeq: UInt64 = 0
    @exclusivity(unchecked) var nextTimerID: UInt64 = 1
    /// The last same-instant timer group made (`orderSameInstant`).
    @exclusivity(unchecked) var nextTimerGroup: UInt32 = 0
    /// The ready list (see `collectCandidates`): lane heads in lane order, then due timers.
    @exclusivity(unchecked) package var ready: UnsafeMutablePointer<Candidate> = .allocate(capacity: 8)
    @exclusivity(unchecked) var readyCapacity = 8
    @exclusivity(unchecked) var readyLaneCount = 0
    /// The lane part of the ready list must be rebuilt before the next pick.
    @exclusivity(unchecked) package var readyDirty = true
    /// Some lane has a rule (`rule(_:drainsBefore:)`): readiness then depends on other lanes.
    @exclusivity(unchecked) package var hasRules = false
    /// Lanes parked now (see `park(_:reason:)`).
    @exclusivity(unchecked) package var parkedLaneCount = 0
    let fastPick: FastPick
    /// Debug builds: the thread this simulation was created on (every entry point checks it).
    let confinement: ThreadConfinement
    /// The strategy when it is a `RandomStrategy` (kept alive by `strategy`).
    unowned(unsafe) let fastRandom: RandomStrategy?
    /// The lane of the job running now, or -1 between jobs.
    @exclusivity(unchecked) public package(set) var currentLaneIndex: Int32 = -1
    @exclusivity(unchecked) package var previousLaneIndex: Int32 = -1
    /// The `sched.pick` event of the job running now (default cause of what it records).
    @exclusivity(unchecked) public package(set) var currentJobEvent: EventID = 0
    /// The label of the job running now (the site of its shared-cell accesses).
    @exclusivity(unchecked) package var currentJobLabel: Symbol = .empty
    /// The strategy, when it watches reads-from pairs (see `SharedCell`).
    let readsFromObserver: (any ReadsFromObserver)?
    /// The strategy, when it watches every shared-cell access with its site (`surw`, `rff`).
    let accessObserver: (any SharedAccessObserver)?
    @exclusivity(unchecked) package var reportedFailure: Verdict?
    @exclusivity(unchecked) var oracles = OracleSet()
    @exclusivity(unchecked) package var liveTasks: [Int: String] = [:]
    @exclusivity(unchecked) package var nextTaskNumber = 0
    @exclusivity(unchecked) package var taskLaneCounts: [String: Int] = [:]
    /// The run's lock order, set by its carriers when the run ends (`--preempt`).
    package var lockOrder: [LockOrderEdge] = []
    @exclusivity(unchecked) var finished = false
    /// Tasks waiting in `settle()` for the run to go quiet, first come first resumed.
    @exclusivity(unchecked) package var quietWaiters: [() -> Void] = []
    /// Where the run's jobs run: this thread (`.off`, the default) or carriers that take turns, with
    /// lock operations as scheduling points under `.preemptLocks` (see `CarrierMode`). Set before `run()`.
    @exclusivity(unchecked) public var carrierMode: CarrierMode = .off
    /// What this process adds to a run beyond the kernel (``RunHost``): SimCapture's host when it is
    /// linked, read once when the simulation is made; nil in a process with the kernel alone.
    package let host: (any RunHost)?
    /// The host's own state for this run (the captures of its Swift concurrency, GCD, run loop,
    /// carriers), made by the host on first use: the kernel keeps it without knowing its type.
    @exclusivity(unchecked) package var hostState: AnyObject?
    /// A lane rule was declared (`rule(_:drainsBefore:)`): the ready list is rebuilt per step for good.
    @exclusivity(unchecked) package var hasLaneRules = false

    let kernelLane: Symbol
    let kindPick: Symbol
    package let kindAdvance: Symbol
    let kindOracleFail: Symbol
    let keyOrdinal: Symbol
    let keyTimer: Symbol
    let keyMessage: Symbol
    package let keyTo: Symbol
    /// The symbols shared cells record with, interned by the first cell (so that runs without cells
    /// keep their string tables as they were).
    @exclusivity(unchecked) var sharedSymbols: SharedSymbols?
    let pickKindHash: UInt64
    let ordinalKeyHash: UInt64
    let timerKeyHash: UInt64

    /// A fresh run from `seed` under `strategy`, writing events to `sink`; nothing runs until `run()`.
    public init(
        seed: UInt64, strategy: any Strategy, sink: any EventSink = NullSink(), limits: RunLimits = .standard
    ) {
        self.seed = seed
        self.strategy = strategy
        self.sink = sink
        sinkDiscards = sink is NullSink
        self.limits = limits
        let host = RunHosts.current
        self.host = host
        confinement = ThreadConfinement(host: host)
        let symbols = SymbolTable()
        symbols.onDefine = { [unowned sink] symbol, text in sink.define(symbol, text) }
        self.symbols = symbols
        kernelLane = symbols.intern("sim")
        kindPick = symbols.intern("sched.pick")
        kindAdvance = symbols.intern("clock.advance")
        kindOracleFail = symbols.intern("oracle.fail")
        keyOrdinal = symbols.intern("ordinal")
        keyTimer = symbols.intern("timer")
        keyMessage = symbols.intern("message")
        keyTo = symbols.intern("to")
        readsFromObserver = strategy as? any ReadsFromObserver
        accessObserver = strategy as? any SharedAccessObserver
        pickKindHash = symbols.contentHash(kindPick)
        ordinalKeyHash = symbols.contentHash(keyOrdinal)
        timerKeyHash = symbols.contentHash(keyTimer)
        fastRandom = strategy as? RandomStrategy
        if fastRandom != nil {
            fastPick = .random
        } else if strategy is FIFOStrategy {
            fastPick = .fifo
        } else {
            fastPick = .general
        }
        strategy.start(seed: seed, symbols: symbols)
    }

    deinit {
        ready.deallocate()
    }

    /// Interns a string for this run (kinds, subjects, labels, field keys).
    public func symbol(_ text: String) -> Symbol { symbols.intern(text) }

    // MARK: Lanes

    /// The lane with this name, created on first use.
    public func lane(_ name: String) -> LaneID {
        let symbol = symbols.intern(name)
        if let index = laneIndex(of: symbol) { return LaneID(index: index, name: symbol) }
        let index = Int32(lanes.count)
        lanes.append(LaneState(name: symbol))
        let slot = Int(symbol.raw)
        while laneIndexBySymbol.count <= slot { laneIndexBySymbol.append(-1) }
        laneIndexBySymbol[slot] = index
        return LaneID(index: index, name: symbol)
    }

    /// The index of the lane named by `symbol`, if there is one.
    package func laneIndex(of symbol: Symbol) -> Int32? {
        let slot = Int(symbol.raw)
        guard slot < laneIndexBySymbol.count else { return nil }
        let index = laneIndexBySymbol[slot]
        return index < 0 ? nil : index
    }

    /// A lane rule: `lane` may not run while `first` has jobs (e.g. microtasks drain before `main`).
    public func rule(_ first: LaneID, drainsBefore lane: LaneID) {
        precondition(first != lane, "a lane cannot drain before itself")
        checkLane(first)
        checkLane(lane)
        if !lanes[Int(lane.index)].blockers.contains(first.index) {
            lanes[Int(lane.index)].blockers.append(first.index)
        }
        hasRules = true
        hasLaneRules = true
        readyDirty = true
    }

    /// The lane of the job running now (the kernel's own lane between jobs).
    public var currentLane: LaneID? {
        currentLaneIndex < 0 ? nil : LaneID(index: currentLaneIndex, name: lanes[Int(currentLaneIndex)].name)
    }

    /// Jobs waiting on a lane.
    public func pendingJobs(on lane: LaneID) -> Int {
        checkLane(lane)
        return lanes[Int(lane.index)].queue.count
    }

    /// Traps unless `lane` is one of this simulation's lanes: an index from another simulation would
    /// read past the lane table (one compare, so it is checked in release builds too).
    @inline(__always)
    func checkLane(_ lane: LaneID) {
        precondition(
            UInt32(bitPattern: lane.index) < UInt32(truncatingIfNeeded: lanes.count),
            "lane index \(lane.index) is not a lane of this simulation")
    }

    // MARK: Posting

    @inline(__always)
    package func nextOrdinal(lane: Int32, label: Symbol) -> UInt32 {
        lanes[Int(lane)].ordinals.next(label)
    }

    /// Posts a job at the back of `lane`. Its cause is the last event recorded (or `cause`).
    public func post(_ lane: LaneID, _ label: Symbol, cause: EventID? = nil, _ body: __owned @escaping () -> Void) {
        confinement.check("post")
        checkLane(lane)
        let ordinal = nextOrdinal(lane: lane.index, label: label)
        nextSeq += 1
        let index = Int(lane.index)
        lanes[index].queue.append(
            body, JobMeta(label: label, ordinal: ordinal, seq: nextSeq, cause: cause ?? eventCount))
        laneGainedJob(lane.index)
    }

    /// Posts a job by lane and label names.
    public func post(on lane: String, _ label: String, cause: EventID? = nil, _ body: @escaping () -> Void) {
        post(self.lane(lane), symbols.intern(label), cause: cause, body)
    }

    // MARK: Recording

    /// Records an event on the current lane; its cause defaults to the running job's pick.
    @discardableResult
    public func emit(
        _ kind: Symbol, subject: Symbol = .empty, fields: EventFields = EventFields(), cause: EventID? = nil
    )
        -> EventID
    {
        confinement.check("emit")
        eventCount += 1
        let lane = currentLaneIndex < 0 ? kernelLane : lanes[Int(currentLaneIndex)].name
        let event = Event(
            seq: eventCount, time: now, lane: lane, kind: kind, subject: subject, fields: fields,
            cause: cause ?? currentJobEvent)
        let table = symbols
        digest.mix(event) { table.contentHash($0) }
        if !sinkDiscards { sink.record(event) }
        return eventCount
    }

    /// Records an event by names: `sim.emit("txn.commit", "input", ["count": 2])`.
    @discardableResult
    public func emit(
        _ kind: String, _ subject: String = "", _ fields: KeyValuePairs<String, FieldLiteral> = [:],
        cause: EventID? = nil
    ) -> EventID {
        var packed = EventFields()
        for (key, value) in fields { packed.append(EventField(symbols.intern(key), value.resolve(in: symbols))) }
        return emit(symbols.intern(kind), subject: symbols.intern(subject), fields: packed, cause: cause)
    }

    // MARK: Choices

    func recordDecision(_ decision: Decision) {
        scheduleDigest.mix(UInt64(decision.kind.rawValue) << 56 ^ UInt64(decision.chosen) << 28 ^ UInt64(decision.count))
        if retainsTape { decisions.append(decision) }
        if !sinkDiscards { sink.record(decision) }
    }

    /// A data choice among `count` options, made by the strategy and recorded (0 is the default).
    public func choose(_ count: Int, _ site: String, kind: DecisionKind = .choose) -> Int {
        precondition(count > 0, "choose needs at least one option")
        confinement.check("choose")
        if count == 1 { return 0 }
        let label = symbols.intern(site)
        let chosen = strategy.choose(count, kind: kind, site: label)
        precondition(chosen >= 0 && chosen < count, "strategy chose \(chosen) of \(count)")
        recordDecision(
            Decision(
                kind: kind, chosen: UInt32(chosen), count: UInt32(count), fallback: 0, label: label,
                afterEvent: eventCount))
        return chosen
    }

    /// Fault injection: true when the strategy fires this site (never under `fifo`).
    public func buggify(_ site: String) -> Bool {
        choose(2, site, kind: .buggify) == 1
    }

    /// The items in an order chosen by the strategy ("no particular order"); `fifo` keeps the order.
    public func permutation<T>(_ items: [T], _ site: String) -> [T] {
        var remaining = items
        var result: [T] = []
        result.reserveCapacity(items.count)
        while !remaining.isEmpty {
            let index = choose(remaining.count, site, kind: .permute)
            result.append(remaining.remove(at: index))
        }
        return result
    }
}

/// A lane's name, queue, rules and ordinal counters; noncopyable because its queue and counters are.
struct LaneState: ~Copyable {
    let name: Symbol
    var queue = JobQueue()
    var blockers: [Int32] = []
    var ordinals = OrdinalCounter()
    /// Why the lane may not run (a lock held by another lane, …), or nil when it may.
    var parkedReason: (() -> String)?

    init(name: Symbol) { self.name = name }
}

/// A field value written with literals in model code; strings are interned when recorded.
public enum FieldLiteral: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    Sendable
{
    /// An integer field.
    case int(Int64)
    /// A text field.
    case text(String)
    /// A boolean field.
    case bool(Bool)

    /// An integer field from a literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A text field from a literal (interned when recorded).
    public init(stringLiteral value: String) { self = .text(value) }
    /// A Boolean field from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// An integer field from an `Int` variable.
    public static func int(_ value: Int) -> FieldLiteral { .int(Int64(value)) }

    func resolve(in symbols: SymbolTable) -> FieldValue {
        switch self {
        case .int(let v): .int(v)
        case .text(let s): .symbol(symbols.intern(s))
        case .bool(let b): .bool(b)
        }
    }
}
