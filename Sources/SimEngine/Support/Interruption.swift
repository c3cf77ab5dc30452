import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C and SIGTERM for long commands (`fuzz`): the first one asks the campaign to stop and report
/// what ran; a second one ends the process at once.
///
/// The flag is process-wide because a signal handler can reach nothing else. Only the command-line
/// driver reads it, between runs: no simulation ever sees it, so it cannot change a schedule.
package enum Interruption {
    private static let flag = Atomic<Bool>(false)

    /// True once SIGINT or SIGTERM arrived.
    package static var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// Installs the handlers (idempotent).
    package static func install() {
        _ = isRequested  // initialise the flag before a handler can touch it
        // A parent may have started us with these signals blocked (test runners do): a handler alone
        // would never run.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in [SIGINT, SIGTERM] { installHandler(number) }
    }

    /// The handler: the first signal sets the flag, a second ends the process.
    private static func installHandler(_ number: Int32) {
        let handler: @convention(c) (Int32) -> Void = { number in
            if Interruption.flag.exchange(true, ordering: .relaxed) { _exit(128 + number) }
        }
        _ = signal(number, handler)
    }
}
