import Synchronization

/// What a run needs from the process it runs in, beyond the kernel (issue #42). The kernel is pure
/// Swift: it reaches no runtime, thread, environment or C library. The capture module (SimCapture)
/// installs the one host of its process at load time, before `main`, and through it a run binds its
/// thread to the run (virtual clocks, GCD, locks, threads, the executors), runs on carriers when asked,
/// lets captured work go on when the run is quiet, and names the tasks a hang left suspended. A
/// process that links the kernel alone has no host: every job runs on the caller's thread, nothing is
/// captured, and a run that asks for carriers fails saying so.
package protocol RunHost: AnyObject, Sendable {
    /// One run of `scenario`'s `variant`: `make` builds the simulation; the host sets it up
    /// (`scenario.setUp`) and runs it on the thread its capture needs.
    func run(_ scenario: Scenario, variant: String, make: () -> Simulation) -> RunResult

    /// Runs `body` (the run loop of `simulation`) with this thread bound to the run.
    func running(_ simulation: Simulation, _ body: () -> RunResult) -> RunResult

    /// The run made progress (called every few steps).
    func tick()

    /// Runs `simulation` on carriers (its `carrierMode` is not `.off`): the verdict, or nil when it
    /// went quiet (the end-of-run oracles decide).
    func drive(_ simulation: Simulation) -> Verdict?

    /// The run has nothing ready: true when captured work was released (a job may now be ready).
    func releaseWhenQuiet(_ simulation: Simulation) -> Bool

    /// The run's verdict as reported, with what the host knows added (the tasks a hang left
    /// suspended); the host lets go of what it kept for the run.
    func finishing(_ simulation: Simulation, _ verdict: Verdict) -> Verdict

    /// Whether this thread is a carrier holding a run's turn (it may then call into the simulation).
    var holdsTurnOnThisThread: Bool { get }
}

/// The host of this process, installed once by the capture module's load-time constructor.
package enum RunHosts {
    /// Written once before `main` (SimCapture's constructor), read when a simulation is made: process
    /// state that no run's schedule depends on.
    private static let installed = Mutex<(any RunHost)?>(nil)

    /// Installs `host` for every run made from now on.
    package static func install(_ host: any RunHost) {
        installed.withLock { $0 = host }
    }

    /// The installed host, or nil when the process links the kernel alone.
    package static var current: (any RunHost)? {
        installed.withLock { $0 }
    }
}
