// Debug builds only: the standard library cannot name the current thread, so this file imports the
// platform's pthreads (pthread_self, nothing else). Release builds import nothing here and check nothing.
#if DEBUG && canImport(Darwin)
    import Darwin
#elseif DEBUG && canImport(Glibc)
    import Glibc
#elseif DEBUG && canImport(Musl)
    import Musl
#endif

/// Debug builds: the thread a simulation was created on (or a carrier holding the run's turn, as the
/// host says), so that a call from any other thread traps at once (as SwiftNIO's `EmbeddedEventLoop`
/// does) instead of racing on the kernel's unlocked state.
///
/// The typical culprit is async code that escaped the simulation: a continuation resumed from a
/// real thread, a task on the global executor calling back into the model. Release builds store and
/// check nothing; on a platform without pthreads the check is skipped (said here, not silently).
struct ThreadConfinement {
    #if DEBUG && (canImport(Darwin) || canImport(Glibc) || canImport(Musl))
        private let owner = pthread_self()
        private let host: (any RunHost)?

        init(host: (any RunHost)?) { self.host = host }

        /// Traps when called from another thread than the one that created the simulation.
        @inline(__always)
        func check(_ entry: StaticString) {
            precondition(
                pthread_equal(owner, pthread_self()) != 0 || host?.holdsTurnOnThisThread == true,
                "Simulation.\(entry) called from another thread: a simulation is confined to the thread that created it"
            )
        }
    #else
        init(host: (any RunHost)?) {}

        @inline(__always)
        func check(_ entry: StaticString) {}
    #endif
}
