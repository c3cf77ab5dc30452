import SimEngine

/// Runs the command line this process was started with again, in a child (with `--guarded`), its
/// output going straight to ours: work that may trap (a model that crashes on some schedule) ends
/// the child, and this process reports the trap as a crash finding instead of dying of it.
enum GuardedRun {
    /// A guarded child runs as long as the command would (a year: no limit in practice).
    static let noTimeout: Double = 365 * 24 * 3600

    /// How the child ended, or nil when there is no child to run (the command tree hosted by another
    /// program): then the caller does the work itself.
    static func inChild() throws(CommandFailure) -> ChildProcess.Termination? {
        guard ChildProcess.isAvailable else { return nil }
        return try ChildProcess.runInheritingOutput(
            Array(CommandLine.arguments.dropFirst()) + ["--guarded"], timeoutSeconds: noTimeout,
            forwardingInterruption: true)
    }

    /// The child's status; for a trap, a CRASH line (and `--json` document) for work that has no one
    /// schedule to record (explain's re-fuzzed runs).
    static func status(
        of termination: ChildProcess.Termination, command: String, trace: String?, console: Console
    ) -> Int32 {
        switch termination {
        case .exited(let status): return status
        case .signaled where Interruption.isRequested:
            // Ended after Ctrl-C or SIGTERM was passed on: an interruption, not a crash.
            return ExitStatus.interrupted
        case .signaled(let signal):
            let replay =
                trace.map { " — `\(SimRun.programName) replay \(shellQuoted($0))` shows the recorded run" } ?? ""
            console.out(
                "CRASH: a run of this \(command) trapped (killed by signal \(signal)): the model crashes on a schedule it tried\(replay)"
            )
            console.json(
                ResultDocument(
                    command: command, verdict: "fail", exitCode: ExitStatus.failure,
                    members: [.init("crashed", .string("killed by signal \(signal)")), .init("findings", .array([]))]
                ).text)
            return ExitStatus.failure
        }
    }
}
