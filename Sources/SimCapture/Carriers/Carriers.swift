import SimCore
import CSimInterpose

/// What carriers offer code outside the kernel: whether this thread is a carrier of a run, the
/// park/unpark seam for blocking waits, the watchdog's bound, and what this process interposes.
public enum Carriers {
    /// Whether this process's pthread mutex and condition functions are simrun's (Linux, not under
    /// the thread sanitizer): without them lock operations are never scheduling points, and a lock
    /// held by a paused carrier blocks for real (the watchdog then reports it).
    public static var locksInterposed: Bool { simrun_locks_interposed() != 0 }

    /// How many lock acquisitions were scheduling points in this process so far.
    public static var lockPoints: UInt64 { simrun_locks_points() }

    /// Carrier threads started, and abandoned (paused mid-job when their run ended), in this process.
    public static var threads: (started: Int, abandoned: Int) { CarrierPool.statistics }

    /// The most pool carriers one run uses (at the bound lock points stop pausing and new jobs wait
    /// for a carrier to come free).
    public static var maxCarriersPerRun: Int { CarrierSet.maxCarriers }

    /// Lock acquisitions that were scheduling points so far in the run this thread holds the turn
    /// of (0 off carriers, or without `.preemptLocks`).
    public static var lockPointsInThisRun: Int { currentSimulation?.carrierSet?.lockPoints ?? 0 }

    /// Whether the run this thread holds the turn of runs its `main`-lane jobs on the process's main
    /// thread: true on carriers when `run()` was called on the main thread (an executable built on
    /// `SimRun.main`); false off carriers and when driven from another thread (inside `swift test`).
    public static var mainLaneOnMainThread: Bool { currentSimulation?.carrierSet?.mainOnMain ?? false }

    /// A waiting carrier, returned by `park` and given to `unpark`.
    public struct Parked: @unchecked Sendable {
        let carrier: Carrier
        unowned let set: CarrierSet
    }

    /// The run this thread holds the turn of, when it runs on carriers (a job of a run with
    /// `carrierMode` other than `.off`), else nil.
    public static var currentSimulation: Simulation? {
        guard let raw = simrun_turn_binding() else { return nil }
        let simulation = Unmanaged<Simulation>.fromOpaque(raw).takeUnretainedValue()
        return simulation.carrierSet == nil ? nil : simulation
    }

    /// The blocking-wait seam (for interposers such as a `dispatch_semaphore_wait` on a carrier):
    /// parks the calling carrier inside its job and passes the turn on; returns when another job has
    /// called `unpark` with the returned handle *and* the scheduler picked this carrier again (a
    /// recorded pick labelled `park <reason>` on the job's lane). `register` receives the handle
    /// before the carrier parks, so the waker can be told who to wake. If nothing can wake it, the run
    /// ends in a deadlock naming `reason`. Returns false without waiting when the calling thread
    /// is not a carrier of a run (the caller then blocks for real, as outside simrun).
    @discardableResult
    public static func park(reason: String, register: (Parked) -> Void) -> Bool {
        guard let simulation = currentSimulation, let set = simulation.carrierSet else { return false }
        register(Parked(carrier: set.current, set: set))
        let previous = simrun_locks_binding()
        simrun_locks_bind(nil)
        _ = set.parkCurrent(reason: reason)
        simrun_locks_bind(previous)
        return true
    }

    /// Makes a parked carrier a candidate again (called from a job of the same run, holding the turn).
    public static func unpark(_ parked: Parked) {
        parked.set.unpark(parked.carrier)
    }

    /// How long the carrier holding the turn may go without a pick or a hand-off before the watchdog
    /// reports it blocked outside the model (a `Synchronization.Mutex` futex, a lazy global's one-time
    /// initialisation, a `DispatchQueue.sync`, a real sleep): the run then ends with a `deadlock`
    /// verdict saying so. 5 seconds by default; process-wide.
    public static var watchdogTimeout: Duration {
        get { .milliseconds(CarrierWatchdog.timeoutMilliseconds.load(ordering: .relaxed)) }
        set {
            let (seconds, attoseconds) = newValue.components
            let milliseconds = max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
            CarrierWatchdog.timeoutMilliseconds.store(Int(milliseconds), ordering: .relaxed)
        }
    }
}
