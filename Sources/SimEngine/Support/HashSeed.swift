/// Swift's hash seed, pinned (issue #41): a `Set` or `Dictionary` iterates in an order that follows a
/// seed the runtime draws once per process, so code that keeps waiters in a `Set` runs differently in
/// every process, and a finding recorded in one would not replay in another. The runtime reads
/// `SWIFT_DETERMINISTIC_HASHING` once, when it loads: a process cannot pin itself afterwards, so simrun
/// sets it for every child it starts, and an executable built on `SimRun.main` restarts itself once
/// with it set. Inside `swift test` the test process cannot be restarted: run
/// `SWIFT_DETERMINISTIC_HASHING=1 swift test` to pin it there (the Testing article says so).
package enum HashSeed {
    /// The runtime's variable.
    package static let environmentKey = "SWIFT_DETERMINISTIC_HASHING"

    /// `KEY=1`, as a child's environment entry.
    package static let environmentEntry = "\(environmentKey)=1"

    /// Whether this process was started with the variable set (to any value: a user who sets it to
    /// `0` chose random seeds, and is not overruled).
    package static var isSetForThisProcess: Bool { getenv(environmentKey) != nil }

    /// Restarts this process (same executable, same arguments) with the variable set, unless it is
    /// set already. Returns only when it was set, or when the restart itself failed (then the process
    /// goes on unpinned, as before; its children are pinned all the same).
    package static func restartPinnedIfNeeded() {
        guard !isSetForThisProcess else { return }
        setenv(environmentKey, "1", 1)
        _ = execv(ChildProcess.executable, CommandLine.unsafeArgv)
    }
}
