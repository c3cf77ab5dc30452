import SimEngine

/// What `run` and `explain` print when their child (`RerunCommand`) did not end by itself, and
/// shrink's CRASH line: work that trapped in a child is a crash finding, never the end of this
/// process.
enum ChildCrashReport {
    /// The child's status; for a trap, a CRASH line (and `--json` document) for work that has no one
    /// schedule to record (explain's re-fuzzed runs).
    static func status(
        of outcome: RerunCommand.Outcome, command: String, trace: String?, console: Console
    ) -> Int32 {
        switch outcome {
        case .exited(let status): return status
        case .interrupted:
            // The child died of the signal before it could say so (once it handles signals it prints
            // the line and its document itself): said here, and `--json` still gets its one document.
            console.err(Interruption.interruptedLine(program: SimRun.programName))
            console.json(Console.interruptedDocument(command: command))
            return ExitStatus.interrupted
        case .crashed(let signal):
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
