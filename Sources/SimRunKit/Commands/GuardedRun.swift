import SimEngine
import Synchronization

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
        let replaced = replacements.withLock { $0 }
        let arguments = CommandLine.arguments.dropFirst().map { argument in
            replaced.first { $0.original == argument }?.path ?? argument
        }
        return try ChildProcess.runInheritingOutput(
            arguments + ["--guarded"], timeoutSeconds: noTimeout, forwardingInterruption: true)
    }

    /// Arguments the child must not read again as given: a trace read from a pipe was spooled to a
    /// file (`SpooledTrace`), and the pipe is empty now, so the child gets the file.
    private static let replacements = Mutex<[(original: String, path: String)]>([])

    /// The child reads `path` where the command line says `original`.
    static func replace(_ original: String, with path: String) {
        guard original != path else { return }
        replacements.withLock { $0.append((original, path)) }
    }

    /// The command that spooled `original` has ended: later command lines read it as given.
    static func forget(_ original: String) {
        replacements.withLock { $0.removeAll { $0.original == original } }
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
            return crashed(command: command, message: "killed by signal \(signal)", trace: trace, console: console)
        }
    }

    /// The CRASH line (and `--json` document) for work of `command` that trapped in its child and
    /// has no one schedule to record (shrink's candidates, explain's re-fuzzed runs). Returns 1.
    static func crashed(command: String, message: String, trace: String?, console: Console) -> Int32 {
        let replay = trace.map { " — `\(SimRun.programName) replay \(shellQuoted($0))` shows the recorded run" } ?? ""
        console.out(
            "CRASH: a run of this \(command) trapped (\(message)): the model crashes on a schedule it tried\(replay)")
        console.json(
            ResultDocument(
                command: command, verdict: "fail", exitCode: ExitStatus.failure,
                members: [.init("crashed", .string(message)), .init("findings", .array([]))]
            ).text)
        return ExitStatus.failure
    }
}
