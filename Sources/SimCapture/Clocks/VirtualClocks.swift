import SimCore
import CSimInterpose

/// The clocks the user's code reads inside a run (DESIGN §10): `ContinuousClock.now`,
/// `SuspendingClock.now`, `Date()`, `DispatchTime.now()`, `DispatchWallTime.now()` and the C calls
/// beneath them (`clock_gettime`, `gettimeofday`, `time`, `timespec_get`).
///
/// On Linux simrun defines those C functions in every executable and test executable that links
/// SimCore (the `CSimInterpose` target); on a thread running a simulation they read the run's
/// virtual clock, elsewhere they are the C library's. The monotonic clocks read
/// `monotonicEpoch` plus the virtual time; the wall clock reads `wallClockEpoch` (2025-01-01T00:00:00Z)
/// plus the virtual time. CPU-time clocks stay real. On other platforms (macOS) `areVirtual` is false
/// and the clocks are real inside a run, as the capture matrix (<doc:YourOwnAsyncCode>) says.
public enum VirtualClocks {
    /// Whether this process's clock calls are simrun's, so that clocks read on a run's thread are
    /// virtual. False on macOS, and on Linux when SimCore is linked so that the C library's
    /// definitions come first (e.g. SimCore as a shared library loaded after libc).
    public static let areVirtual: Bool = simrun_clocks_interposed() != 0

    /// What the monotonic clocks (`ContinuousClock`, `SuspendingClock`, `DispatchTime`,
    /// `CLOCK_MONOTONIC`, `CLOCK_BOOTTIME`) read at virtual time zero: 1 second, never 0 (0 is
    /// `DISPATCH_TIME_NOW` for libdispatch).
    public static let monotonicEpoch: Duration = .nanoseconds(Int64(SIMRUN_VIRTUAL_MONOTONIC_EPOCH_NS))

    /// What the wall clock (`Date()`, `DispatchWallTime`, `CLOCK_REALTIME`, `gettimeofday`, `time`)
    /// reads at virtual time zero, in seconds since 1970-01-01T00:00:00Z: 2025-01-01T00:00:00Z.
    public static let wallClockEpochUnixSeconds = Int64(SIMRUN_VIRTUAL_WALL_EPOCH_SECONDS)

    /// Whether clocks read on this thread now are virtual (the thread runs a simulation and the
    /// process's clock calls are simrun's).
    public static var areVirtualOnThisThread: Bool {
        guard areVirtual else { return false }
        var reader: simrun_clock_reader?
        var context: UnsafeMutableRawPointer?
        simrun_clocks_binding(&reader, &context)
        return reader != nil
    }

    /// How many clock reads in this process returned virtual time so far.
    public static var virtualReads: UInt64 { simrun_clocks_virtual_reads() }

    /// The binding of a thread, to restore after a nested one.
    struct Binding {
        let reader: simrun_clock_reader?
        let context: UnsafeMutableRawPointer?
    }

    /// Binds this thread's clocks to `simulation`'s virtual clock; returns the binding to restore.
    /// The simulation must outlive the binding (it is not retained).
    static func bind(_ simulation: Simulation) -> Binding {
        var reader: simrun_clock_reader?
        var context: UnsafeMutableRawPointer?
        simrun_clocks_binding(&reader, &context)
        simrun_clocks_bind(readSimulationClock, Unmanaged.passUnretained(simulation).toOpaque())
        return Binding(reader: reader, context: context)
    }

    /// Puts back the binding `bind` replaced.
    static func restore(_ binding: Binding) {
        simrun_clocks_bind(binding.reader, binding.context)
    }

    /// Runs `body` with this thread's clocks bound to `simulation`.
    static func reading<T>(_ simulation: Simulation, _ body: () -> T) -> T {
        let saved = bind(simulation)
        defer { restore(saved) }
        return body()
    }
}

/// The reader the C interposers call on a bound thread: the simulation's `now`.
private let readSimulationClock: simrun_clock_reader = { context in
    Unmanaged<Simulation>.fromOpaque(context!).takeUnretainedValue().now
}
