import SimCore
import CSimInterpose

/// The Grand Central Dispatch work of one run (issue #31). The C interposers of `CSimInterpose`
/// (dispatch.c) hand every dispatch call made on the run's thread to the run's capture, which puts
/// the blocks on lanes of the simulation, so that every pick among them is a recorded decision:
///
/// - the main queue (and queues targeting it) is the `main` lane, shared with `@MainActor` jobs;
/// - a serial queue is a FIFO lane `dispatch:<label>`; a queue targeting a serial queue shares its
///   lane (its target's mutual exclusion);
/// - a concurrent queue (a global queue `global:<qos>`, or one created `.concurrent`) runs its blocks
///   on slot lanes `<name>[k]`, free in any order, up to a barrier: a barrier waits for the blocks
///   before it and holds the ones after it;
/// - `asyncAfter` is a timer on the virtual clock that submits the block when due;
/// - a group's `notify` (and a `DispatchWorkItem`'s) is held until the group is empty;
/// - `DispatchSemaphore.wait`, `DispatchGroup.wait`, `DispatchWorkItem.wait` and `sync` on a queue
///   with work ahead run the rest of the run nested until they can go on (`wait(_:on:until:)`); a
///   wait nothing can end is a `deadlock` verdict naming who waits on what;
/// - `concurrentPerform` runs its iterations in an order the strategy picks;
/// - a `DispatchSource` created in a run is reported as an escape (not simulated).
final class DispatchCapture {
    unowned let simulation: Simulation

    /// The most blocking waits in progress at once (each nested inside the previous one's job).
    static let maxNestedWaits = 32

    /// Where a queue's blocks run.
    final class Domain {
        enum Kind { case main, serial, concurrent }
        let kind: Kind
        let name: String
        /// The lane of a serial or main domain; the first slot of a concurrent one.
        let lane: LaneID
        /// A concurrent domain's slot lanes and whether each holds a block now.
        var slots: [LaneID] = []
        var slotBusy: [Bool] = []
        /// Blocks submitted and finished (a serial `sync` waits until those before it finished).
        var submitted = 0
        var finished = 0
        /// Concurrent: blocks running or ready, a barrier in progress, blocks held behind a barrier.
        var inFlight = 0
        var barrierRunning = false
        var held: [Held] = []
        /// Run directly instead of inside libdispatch's `dispatch_sync_f` on the queue.
        let direct: Bool
        /// Jobs of this domain on the stack now (a `sync` onto a serial domain that is running deadlocks).
        var running = 0

        init(kind: Kind, name: String, lane: LaneID, direct: Bool) {
            self.kind = kind
            self.name = name
            self.lane = lane
            self.direct = direct
            if kind == .concurrent {
                slots = [lane]
                slotBusy = [false]
            }
        }
    }

    /// A block the run holds until it runs; frees it (and leaves its group) when dropped unrun.
    final class Held {
        let raw: UnsafeMutablePointer<simrun_dispatch_item>
        /// Called before the block runs (a timer's fire is no longer pending then).
        var onRun: (() -> Void)?
        init(_ raw: UnsafeMutablePointer<simrun_dispatch_item>) { self.raw = raw }
        deinit { simrun_dispatch_item_free(raw) }
        var kind: Int32 { raw.pointee.kind }
        var isBarrier: Bool { raw.pointee.barrier != 0 }
    }

    /// A wait in progress: who waits (lane and job) on what.
    struct Wait {
        let who: String
        let what: String
    }

    private var domains: [UInt: Domain] = [:]
    private var laneNameUses: [String: Int] = [:]
    private var notifications: [Held] = []
    private var objectNames: [UInt: String] = [:]
    private var objectCounts: [String: Int] = [:]
    private(set) var waits: [Wait] = []
    private let mainQueue = UInt(bitPattern: simrun_dispatch_main_queue())

    init(simulation: Simulation) {
        self.simulation = simulation
    }

    /// Whether this thread runs a job of a run's `main` lane now (a `@MainActor` job or a main-queue
    /// block): the main actor's isolation checks and `dispatchPrecondition(.onQueue(.main))` hold there.
    static var mainLaneRunsOnThisThread: Bool {
        guard let simulation = Simulation.boundToThisThread, let lane = simulation.currentLane else { return false }
        return simulation.symbols[lane.name] == "main"
    }

    // MARK: Domains

    /// The domain of `queue`, found on first sight from its target chain.
    func domain(of queue: UnsafeMutableRawPointer) -> Domain {
        let key = UInt(bitPattern: queue)
        if let known = domains[key] { return known }
        var walk: UnsafeMutableRawPointer? = queue
        var outermostSerial: UnsafeMutableRawPointer?
        var targetsMain = false
        var inactive = false
        for _ in 0..<32 {
            guard let current = walk else { break }
            if UInt(bitPattern: current) == mainQueue {
                targetsMain = true
                break
            }
            if isRoot(current) { break }
            var target: UnsafeMutableRawPointer?
            let facts = simrun_dispatch_queue_facts(current, &target)
            if facts & 2 != 0 { inactive = true }
            if facts & 1 == 0 { outermostSerial = current }
            walk = target
        }
        let domain: Domain
        if targetsMain {
            domain = key == mainQueue ? makeMain() : self.domain(of: UnsafeMutableRawPointer(bitPattern: mainQueue)!)
        } else if let serial = outermostSerial, serial != queue {
            domain = self.domain(of: serial)
        } else if outermostSerial == queue {
            let name = uniqueName("dispatch:" + label(of: queue, fallback: "serial"))
            domain = Domain(kind: .serial, name: name, lane: simulation.lane(name), direct: inactive)
        } else {
            let base =
                isRoot(queue)
                ? "global:" + label(of: queue, fallback: "root").replacing("com.apple.root.", with: "")
                : "dispatch:" + label(of: queue, fallback: "concurrent")
            let name = uniqueName(base)
            domain = Domain(kind: .concurrent, name: name, lane: simulation.lane(name + "[1]"), direct: inactive)
        }
        domains[key] = domain
        return domain
    }

    private func makeMain() -> Domain {
        Domain(kind: .main, name: "main", lane: simulation.lane("main"), direct: true)
    }

    private func isRoot(_ queue: UnsafeMutableRawPointer) -> Bool {
        label(of: queue, fallback: "").hasPrefix("com.apple.root.")
    }

    private func label(of queue: UnsafeMutableRawPointer, fallback: String) -> String {
        let text = Self.withoutAddresses(String(cString: simrun_dispatch_queue_label(queue)))
        return text.isEmpty ? fallback : text
    }

    /// A label without the addresses some libraries put in it (an unnamed `OperationQueue`'s queue
    /// is `NSOperationQueue 0x55e3…`): a lane's name must be the same in every process, and two
    /// queues of one label are told apart by `uniqueName`'s order of first use.
    static func withoutAddresses(_ label: String) -> String {
        label.split(separator: " ", omittingEmptySubsequences: true)
            .filter { word in
                !(word.hasPrefix("0x") && word.count > 2 && word.dropFirst(2).allSatisfy(\.isHexDigit))
            }
            .joined(separator: " ")
    }

    /// Two queues with one label in a run: the second is `label#2`.
    private func uniqueName(_ base: String) -> String {
        let uses = (laneNameUses[base] ?? 0) + 1
        laneNameUses[base] = uses
        return uses == 1 ? base : "\(base)#\(uses)"
    }

    /// A semaphore's or group's name in this run: `DispatchSemaphore#1`, … in order of first wait.
    private func name(of object: UnsafeMutableRawPointer, kind: String) -> String {
        let key = UInt(bitPattern: object)
        if let known = objectNames[key] { return known }
        let count = (objectCounts[kind] ?? 0) + 1
        objectCounts[kind] = count
        let name = "\(kind)#\(count)"
        objectNames[key] = name
        return name
    }

    // MARK: Submitting

    /// A block submitted with `async`, `asyncAfter`, a barrier, a group, or a group's `notify`.
    func submit(_ raw: UnsafeMutablePointer<simrun_dispatch_item>) {
        let item = Held(raw)
        switch Int(item.kind) {
        case Int(SIMRUN_DISPATCH_NOTIFY):
            if simrun_dispatch_try_wait(Int32(SIMRUN_DISPATCH_WAIT_GROUP), raw.pointee.group!) == 0 {
                enqueue(item)
            } else {
                notifications.append(item)
            }
        case Int(SIMRUN_DISPATCH_AFTER):
            let deadline = simrun_dispatch_virtual_deadline(raw.pointee.when)
            guard deadline > simulation.now else {
                enqueue(item)
                return
            }
            let domain = domain(of: raw.pointee.queue)
            simulation.schedule(at: deadline, on: domain.lane, "dispatch.after") { [unowned self] in enqueue(item) }
        default:
            enqueue(item)
        }
    }

    private func enqueue(_ item: Held) {
        let domain = domain(of: item.raw.pointee.queue)
        domain.submitted += 1
        guard domain.kind == .concurrent else {
            post(item, on: domain.lane, in: domain, slot: -1)
            return
        }
        if item.isBarrier {
            if domain.inFlight == 0 && domain.held.isEmpty && !domain.barrierRunning {
                startOnSlot(item, in: domain)
            } else {
                domain.held.append(item)
            }
        } else if domain.held.isEmpty && !domain.barrierRunning {
            startOnSlot(item, in: domain)
        } else {
            domain.held.append(item)
        }
    }

    /// Puts a concurrent domain's block on its first free slot lane.
    private func startOnSlot(_ item: Held, in domain: Domain) {
        if item.isBarrier { domain.barrierRunning = true } else { domain.inFlight += 1 }
        var slot = domain.slotBusy.firstIndex(of: false) ?? -1
        if slot < 0 {
            slot = domain.slots.count
            domain.slots.append(simulation.lane("\(domain.name)[\(slot + 1)]"))
            domain.slotBusy.append(false)
        }
        domain.slotBusy[slot] = true
        post(item, on: domain.slots[slot], in: domain, slot: slot)
    }

    private func post(_ item: Held, on lane: LaneID, in domain: Domain, slot: Int) {
        simulation.post(lane, simulation.symbol(Self.jobLabel(item.kind))) { [unowned self] in
            run(item, in: domain, slot: slot)
        }
    }

    static func jobLabel(_ kind: Int32) -> String {
        switch Int(kind) {
        case Int(SIMRUN_DISPATCH_AFTER): "dispatch.after"
        case Int(SIMRUN_DISPATCH_BARRIER): "dispatch.barrier"
        case Int(SIMRUN_DISPATCH_GROUP_ASYNC): "dispatch.group"
        case Int(SIMRUN_DISPATCH_NOTIFY): "dispatch.notify"
        default: "dispatch.async"
        }
    }

    private func run(_ item: Held, in domain: Domain, slot: Int) {
        domain.running += 1
        item.onRun?()
        simrun_dispatch_item_run(item.raw, domain.direct ? 0 : 1)
        domain.running -= 1
        domain.finished += 1
        if domain.kind == .concurrent {
            if item.isBarrier { domain.barrierRunning = false } else { domain.inFlight -= 1 }
            domain.slotBusy[slot] = false
            startHeld(in: domain)
        }
        _ = releaseNotifications()
    }

    /// Starts what a finished block or barrier let go: blocks up to the next barrier, or that barrier
    /// once nothing runs.
    private func startHeld(in domain: Domain) {
        while let first = domain.held.first, !domain.barrierRunning {
            if first.isBarrier && domain.inFlight > 0 { break }
            domain.held.removeFirst()
            startOnSlot(first, in: domain)
        }
    }

    /// Submits the held notifications whose groups are empty now, in the order they were asked for.
    /// True when one was submitted.
    func releaseNotifications() -> Bool {
        guard !notifications.isEmpty else { return false }
        var released = false
        var index = 0
        while index < notifications.count {
            let item = notifications[index]
            if simrun_dispatch_try_wait(Int32(SIMRUN_DISPATCH_WAIT_GROUP), item.raw.pointee.group!) == 0 {
                notifications.remove(at: index)
                enqueue(item)
                released = true
            } else {
                index += 1
            }
        }
        return released
    }

    // MARK: Waiting

    /// `DispatchSemaphore.wait`, `DispatchGroup.wait` (and `DispatchWorkItem.wait`): libdispatch's
    /// answer when it can give it now, else the rest of the run goes on nested until it can, until the
    /// deadline (virtual), or until nothing can run (a deadlock).
    func wait(kind: Int32, object: UnsafeMutableRawPointer, timeout: UInt64) -> Int {
        let first = simrun_dispatch_try_wait(kind, object)
        if first == 0 { return 0 }
        let deadline = simrun_dispatch_virtual_deadline(timeout)
        if deadline < 0 { return first }
        let what = name(
            of: object, kind: kind == Int32(SIMRUN_DISPATCH_WAIT_SEMAPHORE) ? "DispatchSemaphore" : "DispatchGroup")
        let done = wait(on: what, until: deadline) { simrun_dispatch_try_wait(kind, object) == 0 }
        return done ? 0 : first
    }

    /// Runs the rest of the run nested until `ready()`; false on timeout, deadlock or the run's end.
    /// The waiting job's lane is parked meanwhile (its queue cannot run anything else).
    func wait(on what: String, until deadline: Int64, ready: () -> Bool) -> Bool {
        guard waits.count < Self.maxNestedWaits else {
            simulation.fail(
                "dispatch-wait",
                "more than \(Self.maxNestedWaits) blocking waits nested in one another (\(what)); simrun runs a wait's "
                    + "alternatives nested on the run's thread until carriers take turns")
            return false
        }
        let lane = simulation.currentLane
        let who = lane.map { simulation.symbols[$0.name] } ?? "the scenario's set-up"
        let job = simulation.symbols[simulation.currentJobLabel]
        // The user's function that waits is named only if a deadlock report asks.
        let site = WaitSite.here()
        let parked = lane.map { simulation.isParked($0) } ?? true
        if let lane, !parked { simulation.park(lane, describedBy: { "\(what) (in \(job), \(site))" }) }
        waits.append(Wait(who: who, what: what))
        simulation.emit("dispatch.wait", what)
        defer {
            waits.removeLast()
            if let lane, !parked { simulation.unpark(lane) }
        }
        while true {
            if ready() {
                simulation.emit("dispatch.wake", what)
                return true
            }
            switch simulation.nestedStep(until: deadline) {
            case .ran:
                continue
            case .stopped:
                return false
            case .idle:
                if deadline == .max {
                    reportDeadlock()
                    return false
                }
                simulation.advanceClock(to: deadline)
                if ready() {
                    simulation.emit("dispatch.wake", what)
                    return true
                }
                simulation.emit("dispatch.timeout", what)
                return false
            }
        }
    }

    private func reportDeadlock() {
        guard simulation.reportedFailure == nil else { return }
        if let verdict = simulation.deadlockVerdict() {
            simulation.reportedFailure = verdict
        } else {
            let chain = waits.reversed().map { "\($0.who) waits on \($0.what)" }.joined(separator: "; ")
            simulation.reportedFailure = .deadlock("nothing left to run: " + chain)
        }
    }

    // MARK: Timer sources

    /// A `DispatchSource` timer of the run: its schedule and handlers, fired on virtual time.
    final class TimerSource {
        let queue: UnsafeMutableRawPointer
        let name: String
        var handler: Held?
        var cancelHandler: Held?
        /// Virtual deadline of the next fire (nil: not scheduled), and the repeat interval.
        var next: Int64?
        var interval: Int64?
        /// Sources start inactive; `resume`/`activate` start them, `suspend` pauses.
        var suspended = 1
        var cancelled = false
        var armed: TimerHandle?
        /// A fire whose handler has not run yet: later fires coalesce into it, as libdispatch does.
        var firePending = false

        init(queue: UnsafeMutableRawPointer, name: String) {
            self.queue = queue
            self.name = name
        }
    }

    private var timerSources: [UInt: TimerSource] = [:]

    func timerCreated(_ source: UnsafeMutableRawPointer, queue: UnsafeMutableRawPointer) {
        let count = (objectCounts["DispatchSourceTimer"] ?? 0) + 1
        objectCounts["DispatchSourceTimer"] = count
        timerSources[UInt(bitPattern: source)] = TimerSource(queue: queue, name: "DispatchSourceTimer#\(count)")
    }

    /// A call about a timer source; false when `source` is not one of the run's.
    func timerCall(
        _ source: UnsafeMutableRawPointer, op: Int32, handler: UnsafeMutablePointer<simrun_dispatch_item>?,
        start: UInt64, interval: UInt64
    ) -> Bool {
        guard let timer = timerSources[UInt(bitPattern: source)] else { return false }
        switch Int(op) {
        case Int(SIMRUN_DISPATCH_TIMER_SET):
            let deadline = simrun_dispatch_virtual_deadline(start)
            timer.next = deadline == .max ? nil : max(deadline, simulation.now)
            timer.interval = interval == .max || interval == 0 ? nil : Int64(clamping: interval)
        case Int(SIMRUN_DISPATCH_TIMER_HANDLER):
            timer.handler = handler.map(Held.init)
        case Int(SIMRUN_DISPATCH_TIMER_CANCEL_HANDLER):
            timer.cancelHandler = handler.map(Held.init)
        case Int(SIMRUN_DISPATCH_TIMER_RESUME), Int(SIMRUN_DISPATCH_TIMER_ACTIVATE):
            timer.suspended = max(0, timer.suspended - 1)
        case Int(SIMRUN_DISPATCH_TIMER_SUSPEND):
            timer.suspended += 1
        case Int(SIMRUN_DISPATCH_TIMER_CANCEL):
            guard !timer.cancelled else { return true }
            timer.cancelled = true
            if let cancelHandler = timer.cancelHandler {
                let raw = cancelHandler.raw.pointee
                enqueue(
                    Held(
                        simrun_dispatch_item_make(
                            Int32(SIMRUN_DISPATCH_ASYNC), timer.queue, raw.block, raw.context, raw.function)))
            }
        default:
            return true
        }
        arm(timer)
        return true
    }

    /// Keeps the source's one pending virtual timer in step with its schedule and state.
    private func arm(_ timer: TimerSource) {
        if let armed = timer.armed {
            simulation.cancel(armed)
            timer.armed = nil
        }
        guard !timer.cancelled, timer.suspended == 0, let next = timer.next else { return }
        let domain = domain(of: timer.queue)
        timer.armed = simulation.schedule(at: next, on: domain.lane, "dispatch.source.fire") { [unowned self] in
            fire(timer)
        }
    }

    private func fire(_ timer: TimerSource) {
        timer.armed = nil
        if let interval = timer.interval, let next = timer.next {
            timer.next = max(next &+ interval, simulation.now)
        } else {
            timer.next = nil
        }
        if let handler = timer.handler, !timer.firePending {
            timer.firePending = true
            let raw = handler.raw.pointee
            let item = Held(
                simrun_dispatch_item_make(
                    Int32(SIMRUN_DISPATCH_ASYNC), timer.queue, raw.block, raw.context, raw.function))
            item.onRun = { timer.firePending = false }
            enqueue(item)
        }
        arm(timer)
    }

    // MARK: sync, concurrentPerform, escapes

    /// `DispatchQueue.sync` (and barrier `sync`, `asyncAndWait`): waits for the queue's blocks ahead,
    /// then runs the block on this thread, as libdispatch does.
    func sync(
        queue: UnsafeMutableRawPointer, block: UnsafeMutableRawPointer?, context: UnsafeMutableRawPointer?,
        function: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?, barrier: Bool
    ) {
        let domain = domain(of: queue)
        let onMainNow = domain.kind == .main && simulation.currentLane?.name == simulation.lane("main").name
        if domain.kind != .concurrent && (domain.running > 0 || onMainNow) {
            let who = simulation.currentLane.map { simulation.symbols[$0.name] } ?? "the scenario's set-up"
            simulation.fail(
                "deadlock",
                "\(who) calls sync on \(domain.name), the queue it runs on: it waits for itself (libdispatch "
                    + "would hang or trap)")
            return
        }
        let ticket = domain.submitted
        let ready: () -> Bool
        switch domain.kind {
        case .main, .serial:
            ready = { domain.finished >= ticket }
        case .concurrent:
            ready = {
                domain.held.isEmpty && !domain.barrierRunning && (!barrier || domain.inFlight == 0)
            }
        }
        if !ready() {
            guard wait(on: "\(domain.name) (sync)", until: .max, ready: ready) else { return }
        }
        let barrierOnConcurrent = barrier && domain.kind == .concurrent
        if barrierOnConcurrent { domain.barrierRunning = true }
        domain.running += 1
        if domain.kind == .main {
            // `DispatchQueue.main.sync` runs its block on main: the block is the main lane's meanwhile.
            let lane = simulation.currentLaneIndex
            simulation.currentLaneIndex = domain.lane.index
            simrun_dispatch_invoke(block, context, function)
            simulation.currentLaneIndex = lane
        } else if domain.direct {
            simrun_dispatch_invoke(block, context, function)
        } else {
            simrun_dispatch_sync_on_queue(queue, block, context, function, barrierOnConcurrent ? 1 : 0)
        }
        domain.running -= 1
        if barrierOnConcurrent {
            domain.barrierRunning = false
            startHeld(in: domain)
        }
        _ = releaseNotifications()
    }

    /// `DispatchQueue.concurrentPerform`: every iteration on this thread, in an order the strategy
    /// picks (recorded as `dispatch.concurrentPerform` decisions).
    func apply(
        iterations: Int, block: UnsafeMutableRawPointer?, context: UnsafeMutableRawPointer?,
        function: (@convention(c) (UnsafeMutableRawPointer?, Int) -> Void)?
    ) {
        let order =
            iterations <= 1
            ? Array(0..<iterations) : simulation.permutation(Array(0..<iterations), "dispatch.concurrentPerform")
        for index in order { simrun_dispatch_apply_iteration(block, context, function, index) }
    }

    /// A construct the run cannot hold: the run fails with the `stays-in-simulation` oracle.
    func escape(_ what: String) {
        simulation.noteUncontrolled(.escape, what)
        simulation.fail("stays-in-simulation", "work escaped the simulation: \(what)")
    }
}

// MARK: The C interposers' way in (dispatch.c declares these weak)

extension Simulation {
    /// The run whose clocks this thread is bound to, if any.
    static var boundToThisThread: Simulation? {
        var reader: simrun_clock_reader?
        var context: UnsafeMutableRawPointer?
        simrun_clocks_binding(&reader, &context)
        guard reader != nil, let context else { return nil }
        return Unmanaged<Simulation>.fromOpaque(context).takeUnretainedValue()
    }

    /// Whether the calling thread runs this simulation now: the thread it runs on, or a carrier of
    /// it (each binds the run to its thread). Code of the run that escaped to a thread of its own or
    /// a real queue's answers false, even while the run's thread is inside one of its jobs.
    public var runsOnCallingThread: Bool { Simulation.boundToThisThread === self }

    /// The run bound to this thread's clocks (the interposers' `run` argument).
    fileprivate static func bound(_ raw: UnsafeMutableRawPointer) -> Simulation {
        Unmanaged<Simulation>.fromOpaque(raw).takeUnretainedValue()
    }

    fileprivate var dispatch: DispatchCapture {
        if let capture = dispatchCapture { return capture }
        let capture = DispatchCapture(simulation: self)
        dispatchCapture = capture
        return capture
    }
}

@_cdecl("simrun_dispatch_submit")
func simrunDispatchSubmit(_ run: UnsafeMutableRawPointer, _ item: UnsafeMutablePointer<simrun_dispatch_item>) {
    Simulation.bound(run).dispatch.submit(item)
}

@_cdecl("simrun_dispatch_wait")
func simrunDispatchWait(
    _ run: UnsafeMutableRawPointer, _ kind: Int32, _ object: UnsafeMutableRawPointer, _ timeout: UInt64
)
    -> Int
{
    Simulation.bound(run).dispatch.wait(kind: kind, object: object, timeout: timeout)
}

@_cdecl("simrun_dispatch_sync")
func simrunDispatchSync(
    _ run: UnsafeMutableRawPointer, _ queue: UnsafeMutableRawPointer, _ block: UnsafeMutableRawPointer?,
    _ context: UnsafeMutableRawPointer?, _ function: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
    _ barrier: Int32
) {
    Simulation.bound(run).dispatch.sync(
        queue: queue, block: block, context: context, function: function, barrier: barrier != 0)
}

@_cdecl("simrun_dispatch_group_left")
func simrunDispatchGroupLeft(_ run: UnsafeMutableRawPointer, _ group: UnsafeMutableRawPointer) {
    _ = Simulation.bound(run).dispatchCapture?.releaseNotifications()
}

@_cdecl("simrun_dispatch_apply")
func simrunDispatchApply(
    _ run: UnsafeMutableRawPointer, _ iterations: Int, _ block: UnsafeMutableRawPointer?,
    _ context: UnsafeMutableRawPointer?, _ function: (@convention(c) (UnsafeMutableRawPointer?, Int) -> Void)?
) {
    Simulation.bound(run).dispatch.apply(iterations: iterations, block: block, context: context, function: function)
}

@_cdecl("simrun_dispatch_assert_main")
func simrunDispatchAssertMain(_ run: UnsafeMutableRawPointer, _ expectOnMain: Int32) {
    let simulation = Simulation.bound(run)
    guard DispatchCapture.mainLaneRunsOnThisThread != (expectOnMain != 0) else { return }
    let lane = simulation.currentLane.map { simulation.symbols[$0.name] } ?? "the scenario's set-up"
    simulation.fail(
        "dispatch-precondition",
        expectOnMain != 0
            ? "dispatchPrecondition(.onQueue(.main)) fails: the code runs on \(lane), not main"
            : "dispatchPrecondition(.notOnQueue(.main)) fails: the code runs on main")
}

@_cdecl("simrun_dispatch_timer_created")
func simrunDispatchTimerCreated(
    _ run: UnsafeMutableRawPointer, _ source: UnsafeMutableRawPointer, _ queue: UnsafeMutableRawPointer
) {
    Simulation.bound(run).dispatch.timerCreated(source, queue: queue)
}

@_cdecl("simrun_dispatch_timer_call")
func simrunDispatchTimerCall(
    _ run: UnsafeMutableRawPointer, _ source: UnsafeMutableRawPointer, _ op: Int32,
    _ handler: UnsafeMutablePointer<simrun_dispatch_item>?, _ start: UInt64, _ interval: UInt64
) -> Int32 {
    guard let capture = Simulation.bound(run).dispatchCapture else { return 0 }
    return capture.timerCall(source, op: op, handler: handler, start: start, interval: interval) ? 1 : 0
}

@_cdecl("simrun_dispatch_escape")
func simrunDispatchEscape(_ run: UnsafeMutableRawPointer, _ what: UnsafePointer<CChar>) {
    Simulation.bound(run).dispatch.escape(String(cString: what))
}

/// Whether Grand Central Dispatch runs under the scheduler in this process (issue #31): true on
/// Linux in an executable or test executable that links SimCapture, where simrun's definitions of
/// libdispatch's entry points are the ones every library calls. On macOS GCD stays real inside a run
/// (Linux only for now; the capture matrix says so).
public enum DispatchCapturing {
    /// Whether `DispatchQueue.async`, `asyncAfter`, groups, work items, semaphores and `sync` made on
    /// a run's thread go to the run.
    public static let isActive: Bool = simrun_dispatch_interposed() != 0

    /// For a scenario built on GCD: true when GCD runs under the scheduler here; else fails the run
    /// with `dispatch-capture` saying why (real GCD work would leave the run), and returns false.
    public static func requireActive(_ simulation: Simulation) -> Bool {
        if isActive { return true }
        simulation.fail(
            "dispatch-capture",
            "Grand Central Dispatch runs under the scheduler on Linux only for now: here its blocks would run "
                + "outside the run, at real time")
        return false
    }

    /// How many dispatch calls were handed to runs in this process so far.
    public static var capturedCalls: UInt64 { simrun_dispatch_captured_calls() }

    /// The most blocking waits nested in one another in a run (each runs the rest of the run nested
    /// until it can return); one more fails the run with `dispatch-wait`.
    public static var maxNestedWaits: Int { DispatchCapture.maxNestedWaits }
}
