import SimCore
import CSimInterpose
import Synchronization

/// One run on carriers (DESIGN §11). Whichever carrier holds the turn makes the next pick itself:
/// a free carrier runs the picked job on its own thread (no hand-off at all when nothing pauses); a
/// job it may not run (a `main`-lane job on the process's main thread, any job while it is paused
/// mid-job) goes to the carrier that may, and the turn with it, carrier to carrier. A paused carrier
/// is a candidate of the picks (lane of its job, label naming the lock and its call site), so every
/// switch is a recorded decision that replays, shrinks and explains.
///
/// The driver (the thread that called `run()`) runs only `main`-lane jobs, and only when it is the
/// process's main thread; otherwise it waits for the end. A run ends on whichever carrier decides so;
/// carriers still paused mid-job then are abandoned (their threads stay parked for good).
final class CarrierSet: @unchecked Sendable {
    unowned let simulation: Simulation
    let driver: Carrier
    /// `main`-lane jobs run on the driver because it is the process's main thread.
    let mainOnMain: Bool
    let preempt: Bool
    /// Carriers of this run waiting for a job (free).
    var idle: [Carrier] = []
    /// Carriers paused mid-job, in the order they paused.
    var paused: [Carrier] = []
    /// Pool carriers this run has taken (released or abandoned at the end).
    var taken = 0
    /// The carrier holding the turn.
    var current: Carrier
    var endVerdict: Verdict?
    var ended = false
    /// The watchdog ended the run: a carrier holding the turn was blocked outside the model.
    let abandoned = Atomic<Bool>(false)
    /// Bumped at every pick and hand-off: the watchdog's sign of life.
    let epoch = Atomic<UInt64>(0)
    let router: (any JobRouter)?
    let clockReader: simrun_clock_reader?
    let clockContext: UnsafeMutableRawPointer?
    let hooks: UnsafeMutablePointer<simrun_lock_hooks>
    let waiters: UnsafeMutablePointer<Int32>
    /// Call-site names by return address, and locks numbered by first appearance in the run.
    var siteLabels: [SiteKey: Symbol] = [:]
    var lockNumbers: [UInt: Int] = [:]
    /// What each carrier last went for, by lock: the label of the point and the lock's name (who
    /// holds a lock a report names, and where it took it).
    var intents: [IntentKey: Intent] = [:]
    /// Threads the program started in this run whose body has not returned, and how many were started
    /// from each site (their lanes' ordinals).
    var threads: [SimulatedThread] = []
    var threadSites: [String: Int] = [:]
    /// Where each mutex made in this run was made (its class in the lock order), by address.
    var madeAt: [UInt: String] = [:]
    /// The run's lock order so far, each pair of classes once.
    var lockOrder: [LockOrderEdge] = []
    private var lockOrderPairs: Set<String> = []
    var mainLane: Int32 = -2
    var laneCountSeen = -1
    var stuckMessage: String?
    /// Lock acquisitions that were scheduling points in this run.
    var lockPoints = 0
    /// The bound was reached and said so (a `carriers.bound` event, once per run).
    var boundReported = false

    /// Most pool carriers a run may use; at the bound lock points stop pausing and no new job starts
    /// while the turn holder cannot run it itself (only paused carriers are resumed).
    static let maxCarriers = 64

    init(_ simulation: Simulation) {
        self.simulation = simulation
        let onMain = simrun_on_main_thread() == 1
        driver = Carrier(processMain: onMain)
        mainOnMain = onMain
        preempt = simulation.carrierMode == .preemptLocks
        current = driver
        router = ExecutorCapture.current
        var reader: simrun_clock_reader?
        var context: UnsafeMutableRawPointer?
        simrun_clocks_binding(&reader, &context)
        clockReader = reader
        clockContext = context
        waiters = .allocate(capacity: 1)
        waiters.initialize(to: 0)
        hooks = .allocate(capacity: 1)
        hooks.initialize(
            to: simrun_lock_hooks(
                context: nil, event: carrierLockEvent, preempt: preempt ? 1 : 0,
                waiters: UnsafePointer(waiters), track_order: preempt ? 1 : 0))
        hooks.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        // Once per process: the program's Mutex uses reach the hooks (mutex.c).
        simrun_mutex_prepare()
    }

    deinit {
        hooks.deallocate()
        waiters.deallocate()
    }

    // MARK: Driving a run

    /// Runs the simulation on carriers until it ends; the verdict decided (nil: it went quiet).
    func drive() -> Verdict? {
        simulation.carrierSet = self
        driver.boundRun = self
        simrun_carrier_thread_register()
        defer { simrun_carrier_thread_unregister() }
        driver.threadID = simrun_thread_id()
        let previousTurn = simrun_turn_binding()
        simrun_turn_bind(Unmanaged.passUnretained(simulation).toOpaque())
        CarrierWatchdog.watch(self)
        schedule(from: driver)
        while !ended {
            driver.wait()
            switch driver.takeMail() {
            case .run(_, let job):
                current = driver
                runJob(job, on: driver)
                schedule(from: driver)
            case .finish:
                break
            case .none, .resume, .release:
                preconditionFailure("simrun: the driver was handed the turn without a job")
            }
        }
        CarrierWatchdog.unwatch(self)
        simulation.lockOrder = lockOrder
        if abandoned.load(ordering: .acquiring) {
            // The carrier stuck in the kernel may come back: it must find its run alive and ended.
            _ = Unmanaged.passRetained(self)
            if let stuckMessage { endVerdict = .deadlock(stuckMessage) }
        }
        for carrier in idle {
            carrier.mail = .release
            carrier.post()
        }
        idle.removeAll()
        simrun_turn_bind(previousTurn)
        simulation.carrierSet = nil
        return endVerdict
    }

    /// Binds a pool carrier's thread to this run (clocks, router, turn) on its first turn.
    func enter(_ carrier: Carrier) {
        current = carrier
        guard carrier.boundRun !== self else { return }
        carrier.boundRun = self
        simrun_clocks_bind(clockReader, clockContext)
        ExecutorCapture.bind(router)
        simrun_turn_bind(Unmanaged.passUnretained(simulation).toOpaque())
    }

    static func unbind(_ carrier: Carrier) {
        carrier.boundRun = nil
        simrun_clocks_bind(nil, nil)
        ExecutorCapture.bind(nil)
        simrun_turn_bind(nil)
    }

    /// Runs a picked job on the calling carrier, with its lock operations bound to this run.
    func runJob(_ job: TakenJob, on carrier: Carrier) {
        carrier.jobSeq = job.seq
        simrun_locks_bind(hooks)
        simrun_mutex_forget_thread_ids()
        job.body()
        simrun_locks_bind(nil)
        if abandoned.load(ordering: .relaxed) { parkForGood(carrier) }
        simulation.previousLaneIndex = job.lane
        simulation.currentLaneIndex = -1
        simulation.currentJobEvent = 0
    }

    /// A free carrier holds the turn: pick and run until the run ends or the turn goes elsewhere.
    func schedule(from me: Carrier) {
        while true {
            epoch.add(1, ordering: .relaxed)
            RunStallGuard.tick()
            switch simulation.carrierDecide(canStartJobs: canRunInline(me) || hasRoom) {
            case .end(let verdict):
                finish(verdict, from: me)
                return
            case .run(let index):
                if let target = takePausedCandidate(index) {
                    if me !== driver { idle.append(me) }
                    hand(to: target, .resume)
                    return
                }
                let job = simulation.takeJob(index)
                if let target = carrierFor(job, me: me) {
                    if me !== driver { idle.append(me) }
                    hand(to: target, .run(self, job))
                    return
                }
                runJob(job, on: me)
            }
        }
    }

    private func canRunInline(_ me: Carrier) -> Bool { me !== driver || mainOnMain }
    var hasRoom: Bool { !idle.isEmpty || taken < Self.maxCarriers }

    func hand(to target: Carrier, _ mail: Carrier.Mail) {
        epoch.add(1, ordering: .relaxed)
        current = target
        target.mail = mail
        target.post()
    }

    /// The run ended on `me` (free or paused): the driver returns it.
    func finish(_ verdict: Verdict?, from me: Carrier) {
        endVerdict = verdict
        ended = true
        if me === driver { return }
        if me.pause == .ready && !paused.contains(where: { $0 === me }) { idle.append(me) }
        current = driver
        driver.mail = .finish
        driver.post()
    }

    /// Where a picked job runs: nil for "here" (a free carrier that may run it), else the carrier to
    /// hand it to (the driver for `main` on the main thread, an idle carrier, or a new one).
    func carrierFor(_ job: TakenJob, me: Carrier?) -> Carrier? {
        let isMain = mainOnMain && job.lane == mainLaneIndex()
        if isMain { return me === driver ? nil : driver }
        if let me, me !== driver { return nil }
        if let carrier = idle.popLast() { return carrier }
        guard let carrier = CarrierPool.take() else {
            fatalError("simrun: cannot start a carrier thread (the system refused a new thread)")
        }
        taken += 1
        return carrier
    }

    private func mainLaneIndex() -> Int32 {
        if laneCountSeen != simulation.laneCount {
            laneCountSeen = simulation.laneCount
            if let symbol = simulation.symbols.lookup("main"), let index = simulation.laneIndex(of: symbol) {
                mainLane = index
            }
        }
        return mainLane
    }

    // MARK: Pausing mid-job

    /// Pauses the carrier holding the turn inside its job until it is picked again (`.ready`) or
    /// woken and picked (the other pauses); meanwhile the turn goes on to other work.
    func pause(_ pause: Carrier.Pause, label: Symbol, waiting description: @escaping () -> String) {
        let me = current
        let sim = simulation
        let lane = sim.currentLaneIndex
        precondition(lane >= 0, "simrun: a carrier paused outside a job")
        let savedEvent = sim.currentJobEvent
        let savedLabel = sim.currentJobLabel
        let contexts = sim.jobContexts.map { $0.saveJobContext() }
        me.pause = pause
        me.lane = lane
        me.label = label
        me.seq = me.jobSeq
        if pause == .ready { me.ordinal = sim.nextOrdinal(lane: lane, label: label) }
        paused.append(me)
        if pause == .ready {
            sim.parkLane(lane, reason: description)
        } else {
            // A wait that may never end: a deadlock names the program's own function that waits.
            let site = WaitSite.here()
            sim.parkLane(lane, reason: { "\(description()), \(site)" })
        }
        sim.currentLaneIndex = -1
        sim.currentJobEvent = 0
        pausedLoop(me)
        let resumedEvent = sim.currentJobEvent
        sim.currentLaneIndex = lane
        sim.currentJobLabel = savedLabel
        sim.currentJobEvent = resumedEvent == 0 ? savedEvent : resumedEvent
        for (context, saved) in zip(sim.jobContexts, contexts) { context.restoreJobContext(saved) }
    }

    private func pausedLoop(_ me: Carrier) {
        while true {
            epoch.add(1, ordering: .relaxed)
            RunStallGuard.tick()
            switch simulation.carrierDecide(canStartJobs: hasRoom) {
            case .end(let verdict):
                finish(verdict, from: me)
                parkForGood(me)
            case .run(let index):
                if let target = takePausedCandidate(index) {
                    if target === me { return }
                    hand(to: target, .resume)
                } else {
                    let job = simulation.takeJob(index)
                    hand(to: carrierFor(job, me: nil) ?? driver, .run(self, job))
                }
                me.wait()
                switch me.takeMail() {
                case .resume:
                    current = me
                    if abandoned.load(ordering: .relaxed) { parkForGood(me) }
                    return
                case .finish:
                    fatalError(
                        "simrun: the run ended while the main thread was paused inside a main-actor job: "
                            + "the main thread cannot be returned to the caller (\(endVerdict?.description ?? "quiet"))"
                    )
                case .none, .run, .release:
                    preconditionFailure("simrun: a paused carrier was handed a job")
                }
            }
        }
    }

    /// A carrier whose run is over while it is paused mid-job (or that came back after the watchdog
    /// ended its run): its job cannot be unwound, so its thread stays parked for good.
    func parkForGood(_ me: Carrier) -> Never {
        if me === driver {
            fatalError(
                "simrun: the run ended while the main thread was paused inside a main-actor job: the main "
                    + "thread cannot be returned to the caller")
        }
        CarrierPool.noteAbandoned()
        simrun_locks_bind(nil)
        while true { me.wait() }
    }

    /// When candidate `index` is a paused carrier: takes it (records its segment's pick) and returns it.
    func takePausedCandidate(_ index: Int) -> Carrier? {
        let candidate = simulation.ready[index]
        guard candidate.timerSlot <= -2 else { return nil }
        let slot = Int(-2 - candidate.timerSlot)
        let carrier = paused.remove(at: slot)
        simulation.unparkLane(carrier.lane)
        simulation.currentLaneIndex = carrier.lane
        simulation.currentJobLabel = carrier.label
        simulation.currentJobEvent = simulation.emitPick(
            lane: simulation.laneName(at: carrier.lane), label: carrier.label, ordinal: carrier.ordinal,
            isTimer: false, cause: 0)
        return carrier
    }

    /// Appends the ready paused carriers to the candidates from `count`; returns the new count.
    func appendPausedCandidates(from count: Int) -> Int {
        var found = count
        for (slot, carrier) in paused.enumerated() where carrier.pause == .ready {
            simulation.reserveReady(found + 1)
            simulation.ready[found] = Candidate(
                lane: simulation.laneName(at: carrier.lane), label: carrier.label, ordinal: carrier.ordinal,
                seq: carrier.seq, isTimer: false, laneIndex: carrier.lane, timerSlot: Int32(-2 - slot))
            found += 1
        }
        return found
    }

    /// Wakes paused carriers: they become candidates again, under a new ordinal of their label.
    private func wake(_ matches: (Carrier.Pause) -> Bool, first only: Bool) -> Int {
        var woken = 0
        for carrier in paused where carrier.pause != .ready && matches(carrier.pause) {
            carrier.pause = .ready
            carrier.ordinal = simulation.nextOrdinal(lane: carrier.lane, label: carrier.label)
            woken += 1
            if only { break }
        }
        return woken
    }

    // MARK: The lock hooks (called on the carrier holding the turn, binding removed)

    func lockEvent(_ operation: Int32, _ object: UnsafeRawPointer?, _ caller: UnsafeRawPointer?, _ site: Int32) {
        if abandoned.load(ordering: .relaxed) { parkForGood(current) }
        guard let object else { return }
        switch Int(operation) {
        case Int(SIMRUN_LOCK_ACQUIRE):
            lockPoints += 1
            // At the bound a lock point does not pause: the job goes on, and the trace says so once
            // (fewer interleavings were explorable, which must not look like a clean run).
            guard paused.count < Self.maxCarriers - 1 else {
                if !boundReported {
                    boundReported = true
                    _ = simulation.emit(
                        "carriers.bound", "lock", ["carriers": .int(Self.maxCarriers), "lockPoints": .int(lockPoints)])
                }
                return
            }
            let label = siteLabel(operation, caller, site)
            let name = lockName(object, site: site)
            intents[IntentKey(carrier: ObjectIdentifier(current), lock: UInt(bitPattern: object))] = Intent(
                label: label, name: name, site: site, decisionsBefore: simulation.decisions.count)
            pause(.ready, label: label) { "\(name.name) (preempted)" }
        case Int(SIMRUN_LOCK_MUTEX), Int(SIMRUN_LOCK_MUTEX_FIRST):
            mutexUse(operation, caller: caller)
        case Int(SIMRUN_LOCK_BLOCKED):
            let label = siteLabel(operation, caller, site)
            let name = lockName(object, site: site)
            let key = IntentKey(carrier: ObjectIdentifier(current), lock: UInt(bitPattern: object))
            intents[key] = Intent(
                label: label, name: name, site: site,
                decisionsBefore: intents[key]?.decisionsBefore ?? simulation.decisions.count)
            waiters.pointee += 1
            pause(.mutex(object), label: label) { [unowned self] in
                self.blockedWait(on: object, named: name, site: site)
            }
        case Int(SIMRUN_LOCK_RELEASED):
            let woken = wake({ $0 == .mutex(object) }, first: false)
            waiters.pointee -= Int32(woken)
        case Int(SIMRUN_LOCK_ORDER):
            noteOrder(taking: object)
        case Int(SIMRUN_LOCK_INIT):
            madeAt[UInt(bitPattern: object)] = LockSite.madeIn(caller: caller, site: site).map { "lock made in \($0)" }
        case Int(SIMRUN_LOCK_CONDITION_WAIT):
            let number = lockNumber(UnsafeRawPointer(object))
            pause(.condition(object), label: siteLabel(operation, caller, site)) {
                "condition C\(number) to be signalled"
            }
        case Int(SIMRUN_LOCK_SIGNAL):
            _ = wake({ $0 == .condition(object) }, first: true)
        case Int(SIMRUN_LOCK_BROADCAST):
            _ = wake({ $0 == .condition(object) }, first: false)
        default:
            break
        }
    }

    /// The carrier holding the turn took `object` while holding others: one edge per lock it holds.
    private func noteOrder(taking object: UnsafeRawPointer) {
        var held = [UnsafeRawPointer?](repeating: nil, count: 16)
        let count = min(16, Int(simrun_locks_held(&held, 16)))
        let carrier = ObjectIdentifier(current)
        guard let taken = intents[IntentKey(carrier: carrier, lock: UInt(bitPattern: object))] else { return }
        let lane = current.lane >= 0 ? simulation.symbols[simulation.laneName(at: current.lane)] : "a carrier"
        for case let holding? in held.prefix(count) where holding != object {
            guard let had = intents[IntentKey(carrier: carrier, lock: UInt(bitPattern: holding))] else { continue }
            let edge = LockOrderEdge(
                from: lockClass(holding, had), to: lockClass(object, taken),
                fromSite: simulation.symbols[had.label], toSite: simulation.symbols[taken.label], lane: lane,
                decisionsBefore: taken.decisionsBefore)
            guard edge.from != edge.to, lockOrderPairs.insert("\(edge.from)\u{0}\(edge.to)").inserted else { continue }
            lockOrder.append(edge)
        }
    }

    /// A lock's class in the lock order: the runtime's status lock is one; others are named by where
    /// they were made, else by where they were taken.
    private func lockClass(_ object: UnsafeRawPointer, _ intent: Intent) -> String {
        if intent.site == Int32(SIMRUN_SITE_STATUS) { return "a task's status lock" }
        return madeAt[UInt(bitPattern: object)] ?? "lock taken at \(simulation.symbols[intent.label])"
    }

    /// How a report names the lock at `object`: `lock L3` (numbered by first appearance in the run),
    /// or `the status lock of task>…` for the concurrency runtime's per-task lock, a fresh mutex at
    /// each acquisition named by the task the runtime was asked to cancel or resume.
    private func lockName(_ object: UnsafeRawPointer, site: Int32) -> LockName {
        if site == Int32(SIMRUN_SITE_STATUS) {
            var operation: Int32 = 0
            if let task = simrun_status_lock_task(&operation) {
                let name = simulation.taskCensus?.name(of: task) ?? "a task outside the run"
                let role = operation == Int32(SIMRUN_STATUS_CANCEL) ? "cancelling it" : "resuming it"
                return LockName(name: "the status lock of \(name)", role: role)
            }
            return LockName(name: "a task's status lock", role: nil)
        }
        if site == Int32(SIMRUN_SITE_MUTEX) { return LockName(name: "Mutex L\(lockNumber(object))", role: nil) }
        return LockName(name: "lock L\(lockNumber(object))", role: nil)
    }

    /// What a carrier parked on the mutex at `object` waits for, read when a report is made: the
    /// lock's name (the holder's, which knows whose status lock it took, when this one could not
    /// tell), who holds it — from the owner's thread id the C library keeps in the mutex — and where
    /// the holder took it.
    func blockedWait(on object: UnsafeRawPointer, named name: LockName, site: Int32) -> String {
        let owner = site == Int32(SIMRUN_SITE_MUTEX) ? simrun_mutex_owner_of_word(object) : simrun_mutex_owner(object)
        guard owner != 0 else { return "\(name.name) (held by a paused carrier or a thread outside the run)" }
        guard let carrier = paused.first(where: { $0.threadID == owner }) ?? (current.threadID == owner ? current : nil)
        else { return "\(name.name) (held by a thread outside the run)" }
        let lane = carrier.lane >= 0 ? simulation.symbols[simulation.laneName(at: carrier.lane)] : "a carrier"
        guard let taken = intents[IntentKey(carrier: ObjectIdentifier(carrier), lock: UInt(bitPattern: object))]
        else { return "\(name.name) (held by \(lane))" }
        // The holder's name for the lock says whose status lock it is, and what the holder does to that
        // task ("cancelling it"); the waiter may not know (a resumption inside the runtime).
        let named = name.role == nil && name.name.hasPrefix("a task's") ? taken.name.name : name.name
        let role = taken.name.role.map { " \($0)" } ?? ""
        return "\(named) (held by \(lane)\(role), taken at \(simulation.symbols[taken.label]))"
    }

    private func lockNumber(_ object: UnsafeRawPointer) -> Int {
        let key = UInt(bitPattern: object)
        if let number = lockNumbers[key] { return number }
        let number = lockNumbers.count
        lockNumbers[key] = number
        return number
    }

    /// The label of a paused carrier's candidate: the kind of lock and where in the program's own
    /// functions it was taken (`LockSite`). Its ordinal on the lane tells which such point of the job
    /// it is; addresses never enter a label, so a trace replays in another build and executable.
    func siteLabel(_ operation: Int32, _ caller: UnsafeRawPointer?, _ site: Int32) -> Symbol {
        let frame = LockSite.place(caller: caller, site: site)
        let key = SiteKey(frame: UInt(bitPattern: frame), caller: UInt(bitPattern: caller), operation: operation)
        if let symbol = siteLabels[key] { return symbol }
        let kind = LockSite.kind(operation, site: site)
        let place = frame.flatMap(LockSite.function(at:))
        let symbol = simulation.symbols.intern(place.map { "\(kind) \($0)" } ?? kind)
        siteLabels[key] = symbol
        return symbol
    }

    // MARK: The park/unpark seam (Carriers.park)

    func parkCurrent(reason: String) -> Carrier {
        let me = current
        pause(.parked, label: simulation.symbols.intern("park \(reason)")) { reason }
        return me
    }

    func unpark(_ carrier: Carrier) {
        guard carrier.pause == .parked else { return }
        carrier.pause = .ready
        carrier.ordinal = simulation.nextOrdinal(lane: carrier.lane, label: carrier.label)
    }
}

/// How a report names a lock, and — for a task's status lock — what its taker does to that task.
struct LockName {
    let name: String
    let role: String?
}

/// What a carrier went for at a lock point: the point's label, the lock's name, its site and how
/// many decisions the run had made then.
struct Intent {
    let label: Symbol
    let name: LockName
    let site: Int32
    let decisionsBefore: Int
}

/// A carrier and a lock it went for.
struct IntentKey: Hashable {
    let carrier: ObjectIdentifier
    let lock: UInt
}

/// A lock point's label, cached by where it was taken.
struct SiteKey: Hashable {
    let frame: UInt
    let caller: UInt
    let operation: Int32
}

/// The C hook: a lock operation on a carrier of the run `context`.
private let carrierLockEvent:
    @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, UnsafeRawPointer?, Int32) -> Void = {
        context, operation, object, caller, site in
        Unmanaged<CarrierSet>.fromOpaque(context!).takeUnretainedValue().lockEvent(operation, object, caller, site)
    }

