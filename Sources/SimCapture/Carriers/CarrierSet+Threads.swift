import SimCore
import CSimInterpose

/// Threads the program starts inside a run (issue #40): each is a carrier of the run with a lane of
/// its own (`thread>ViewModel.load(){1}.1`, named by where it was started), paused before its first
/// instruction until the scheduler picks it (`thread.start`). From then on it is a carrier like the
/// others: its locks are lock points, its `DispatchQueue.main.async` hops are the run's, its sleeps
/// are virtual. When its body returns it hands the turn on and exits (a `pthread_join` on it parks
/// the joiner until then).
extension CarrierSet {
    /// Starts `start(argument)` on a new thread that belongs to this run; the C library's status.
    func startThread(
        frames: [UnsafeRawPointer], start: @escaping @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?,
        argument: UnsafeMutableRawPointer?, thread: UnsafeMutablePointer<pthread_t>
    ) -> Int32 {
        let sim = simulation
        let site = LockSite.startedIn(frames) ?? "a thread"
        let uses = (threadSites[site] ?? 0) + 1
        threadSites[site] = uses
        let lane = sim.lane("thread>\(site).\(uses)")
        let carrier = Carrier(processMain: false)
        carrier.pause = .ready
        carrier.lane = lane.index
        carrier.label = sim.symbols.intern("thread.start")
        carrier.ordinal = sim.nextOrdinal(lane: lane.index, label: carrier.label)
        sim.nextSeq += 1
        carrier.seq = sim.nextSeq
        carrier.jobSeq = carrier.seq
        sim.emit("thread.start", "thread>\(site).\(uses)", ["by": .text(sim.currentLane.map { sim.symbols[$0.name] } ?? "the scenario")])
        let launch = ThreadLaunch(set: self, carrier: carrier, start: start, argument: argument)
        let context = Unmanaged.passRetained(launch).toOpaque()
        let status = simrun_real_pthread_create(thread, nil, threadEntry, context)
        guard status == 0 else {
            Unmanaged<ThreadLaunch>.fromOpaque(context).release()
            return status
        }
        threads.append(SimulatedThread(id: thread.pointee, carrier: carrier))
        paused.append(carrier)
        sim.parkLane(lane.index) { "its start (a thread that has not run yet)" }
        return 0
    }

    /// The new thread's side: waits for its first pick, runs the body as the run's, then hands the
    /// turn on without running anything else itself (it is about to end).
    fileprivate func runThread(_ launch: ThreadLaunch) {
        let me = launch.carrier
        simrun_carrier_thread_register()
        me.threadID = simrun_thread_id()
        me.wait()
        guard case .resume = me.takeMail() else { preconditionFailure("simrun: a thread was started without its turn") }
        enter(me)
        let lane = me.lane
        simrun_locks_bind(hooks)
        _ = launch.start(launch.argument)
        simrun_locks_bind(nil)
        if abandoned.load(ordering: .relaxed) { parkForGood(me) }
        simulation.previousLaneIndex = lane
        simulation.currentLaneIndex = -1
        simulation.currentJobEvent = 0
        simulation.emit("thread.end", simulation.symbols[simulation.laneName(at: lane)], [:])
        if let index = threads.firstIndex(where: { $0.carrier === me }) {
            let ended = threads.remove(at: index)
            for joiner in ended.joiners { unpark(joiner) }
        }
        handOnAndLeave(me)
        CarrierSet.unbind(me)
        simrun_carrier_thread_unregister()
    }

    /// Picks what runs next and hands it, with the turn, to another carrier; the run may end here.
    private func handOnAndLeave(_ me: Carrier) {
        epoch.add(1, ordering: .relaxed)
        RunStallGuard.tick()
        switch simulation.carrierDecide(canStartJobs: hasRoom) {
        case .end(let verdict):
            finish(verdict, from: me)
        case .run(let index):
            if let target = takePausedCandidate(index) {
                hand(to: target, .resume)
            } else {
                let job = simulation.takeJob(index)
                hand(to: carrierFor(job, me: nil) ?? driver, .run(self, job))
            }
        }
    }

    /// A carrier of this run joins `thread`: parks until that thread's body returned (then the C
    /// library's join returns at once).
    func join(_ thread: pthread_t) {
        guard let index = threads.firstIndex(where: { pthread_equal($0.id, thread) != 0 }) else { return }
        let waiting = current
        threads[index].joiners.append(waiting)
        _ = parkCurrent(reason: "the end of \(simulation.symbols[simulation.laneName(at: threads[index].carrier.lane)])")
    }

    /// A sleep on a carrier: parked until the virtual clock has moved `nanoseconds` on, rounded up to
    /// the microsecond, at least one — as a real sleep takes at least a system call and the kernel's
    /// timer slack, and as `Thread.sleep` needs to see the clock move (it sleeps again until a Date
    /// in seconds since 2001, a Double 0.1 µs apart today, is reached).
    func sleep(nanoseconds: Int64) {
        let me = current
        let microseconds = max(1, (max(0, nanoseconds) + 999) / 1_000)
        simulation.schedule(at: simulation.now &+ microseconds * 1_000, on: simulation.lane("timer"), "sleep.end") {
            [unowned self] in unpark(me)
        }
        _ = parkCurrent(reason: "a sleep of \(microseconds) µs")
    }
}

/// A thread started in a run, until its body returns.
struct SimulatedThread {
    let id: pthread_t
    let carrier: Carrier
    var joiners: [Carrier] = []
}

private final class ThreadLaunch {
    unowned let set: CarrierSet
    let carrier: Carrier
    let start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    let argument: UnsafeMutableRawPointer?

    init(
        set: CarrierSet, carrier: Carrier,
        start: @escaping @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?,
        argument: UnsafeMutableRawPointer?
    ) {
        self.set = set
        self.carrier = carrier
        self.start = start
        self.argument = argument
    }
}

private let threadEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    let launch = Unmanaged<ThreadLaunch>.fromOpaque(raw!).takeRetainedValue()
    launch.set.runThread(launch)
    return nil
}

// MARK: The C interposers' way in (threads.c declares these weak)

@_cdecl("simrun_thread_create")
func simrunThreadCreate(
    _ run: UnsafeMutableRawPointer, _ frames: UnsafePointer<UnsafeRawPointer?>, _ count: Int32,
    _ start: @escaping @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?,
    _ argument: UnsafeMutableRawPointer?, _ thread: UnsafeMutablePointer<pthread_t>, _ detached: Int32
) -> Int32 {
    let simulation = Unmanaged<Simulation>.fromOpaque(run).takeUnretainedValue()
    let known = UnsafeBufferPointer(start: frames, count: Int(count)).compactMap { $0 }
    guard let set = simulation.carrierSet else {
        // The one-thread path cannot run a second thread: its work would leave the run.
        let site = LockSite.startedIn(known) ?? "a function not named here"
        simulation.noteUncontrolled(.escape, "a thread on the one-thread path", at: site)
        simulation.fail(
            "stays-in-simulation",
            "work escaped the simulation: a thread started in \(site) runs outside the one-thread scheduler; run with "
                + "carriers (--preempt, or Scenario.running(on:)), where threads are scheduled")
        return -1
    }
    return set.startThread(frames: known, start: start, argument: argument, thread: thread)
}

@_cdecl("simrun_thread_join")
func simrunThreadJoin(_ run: UnsafeMutableRawPointer, _ thread: pthread_t) -> Int32 {
    Unmanaged<Simulation>.fromOpaque(run).takeUnretainedValue().carrierSet?.join(thread)
    return 0
}

@_cdecl("simrun_thread_sleep")
func simrunThreadSleep(_ run: UnsafeMutableRawPointer, _ nanoseconds: Int64) -> Int32 {
    guard let set = Unmanaged<Simulation>.fromOpaque(run).takeUnretainedValue().carrierSet else { return -1 }
    set.sleep(nanoseconds: nanoseconds)
    return 0
}

/// Whether threads started in a run are the run's in this process (Linux, an executable or test
/// executable that links SimCapture): carriers with lanes of their own on carriers, a reported escape
/// on the one-thread path. Elsewhere a thread leaves the run unseen.
public enum ThreadsCapture {
    /// True where `Thread.start()` and `pthread_create` made in a run go to the run.
    public static let isActive: Bool = simrun_threads_interposed() != 0
}
