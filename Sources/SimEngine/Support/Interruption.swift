import CSimInterpose
import SimTrace
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C and SIGTERM. Every command of the `simrun` executable honours them within a moment, with
/// exit 130 and nothing half-written:
///
/// - A command that can stop and report what ran (`fuzz`) asks for it with `install()`: the first
///   signal sets a flag it polls between runs; a second one ends the process at once.
/// - Every other command (`explain`, `bench`, `shrink`, `replay`, `merge`, …) gets `installImmediate()`
///   from `SimRun.main`: the first signal ends the process, after removing the temporary files of
///   outputs not yet renamed into place (`PendingFiles`) and saying so on stderr. What was already
///   printed stays; no output file is left half-written.
///
/// The state is process-wide because a signal handler can reach nothing else. Only the command-line
/// driver reads it, between runs: no simulation ever sees it, so it cannot change a schedule.
package enum Interruption {
    private static let flag = Atomic<Bool>(false)
    /// True once a command said it polls the flag (`install`).
    private static let polled = Atomic<Bool>(false)

    /// True once SIGINT or SIGTERM arrived.
    package static var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// Polled handling (idempotent): the first signal sets `isRequested`, a second ends the process.
    package static func install() {
        polled.store(true, ordering: .relaxed)
        installHandlers()
    }

    /// Immediate handling: the first signal ends the process (exit 130) after removing pending
    /// temporary files. A later `install()` switches to polled handling.
    package static func installImmediate() {
        installHandlers()
    }

    private static func installHandlers() {
        _ = isRequested  // initialise the flags and the file table before a handler can touch them
        _ = polled.load(ordering: .relaxed)
        PendingFiles.prepare()
        // A parent may have started us with these signals blocked (test runners do): a handler alone
        // would never run.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in [SIGINT, SIGTERM] { installHandler(number) }
    }

    /// The handler: sets the flag for a polling command; otherwise — or at a second signal — removes
    /// the pending files, says so and exits 130 (SIGTERM too: 130 means "interrupted" to scripts).
    private static func installHandler(_ number: Int32) {
        let handler: @convention(c) (Int32) -> Void = { _ in
            let again = Interruption.flag.exchange(true, ordering: .relaxed)
            if Interruption.polled.load(ordering: .relaxed) && !again { return }
            PendingFiles.removeAll()
            // Children run in process groups of their own: end them too, none may outlive us.
            _ = simrun_children_kill_all()
            let message: StaticString =
                "\nsimrun: interrupted; stopped before the end, no output file was left half-written\n"
            _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
            _exit(128 + SIGINT)  // as shells report a Ctrl-C (SimRunKit's ExitStatus.interrupted)
        }
        _ = signal(number, handler)
    }
}
