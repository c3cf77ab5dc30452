import SimCore
import SimTrace

/// Runs a schedule again in a new process and compares the events: a model that reads the wall
/// clock, or iterates a `Set` (whose order follows a per-process hash seed), records different events
/// there. The only way to catch the second is a separate process.
package enum DeterminismCheck {
    /// The result of a second run in a child.
    package struct Verdict {
        package var again: IsolatedRecording.Outcome
        /// The first divergent event with context; nil when the events are identical.
        package var divergence: [String]?
        /// The recorded run's verdict (its footer's); nil for a trace cut short (no footer).
        package var recorded: SimCore.Verdict?

        /// Why the re-run is not the recorded run, as printable lines; nil when it is. The events
        /// come first (the first divergent one); when every event agrees, the end must too: a
        /// checking process that died where the recording did not (or the other way round), or a
        /// re-run that ended with another verdict, is a difference — never "replays identically".
        package var difference: [String]? {
            if let divergence { return divergence }
            if again.crashed && recorded?.code != SimCore.Verdict.crashed("").code {
                return [
                    "the re-run's process died after the last recorded event (\(again.verdict)); the recording "
                        + (recorded.map { "ended \($0)" } ?? "has no footer")
                ]
            }
            guard let recorded else {
                return ["the recording has no footer (cut short): its end cannot be compared with the re-run's"]
            }
            if !again.crashed && recorded.code == SimCore.Verdict.crashed("").code {
                return ["the recording crashed (\(recorded)); the re-run ended \(again.verdict)"]
            }
            if FailureSignature(again.verdict) != FailureSignature(recorded) || again.verdict.code != recorded.code {
                return ["same events, another end: recorded \(recorded); re-run \(again.verdict)"]
            }
            return nil
        }
    }

    /// Re-records `trace`'s schedule (decision by decision, the plan its header names) in a child
    /// process and compares, the end as well as the events.
    package static func replayInChild(trace: String, launcher: ProcessLauncher) throws(SimEngineError) -> Verdict {
        let input = try TraceInput(path: trace)
        let header = input.header
        let recorded = input.footer?.verdict
        let path = try temporaryTracePath("recheck")
        defer { unlink(path) }
        let again = try IsolatedRecording(plan: try RunPlan.Descriptor(header: header, path: trace), launcher: launcher)
            .record(seed: header.seed, schedule: .decisions(of: trace), to: path)
        let divergence = try TraceComparison(expected: trace, actual: path)
            .firstDifference(expectedLabel: "recorded", actualLabel: "re-run")
        return Verdict(again: again, divergence: divergence, recorded: recorded)
    }

    /// A fresh trace path in this process's temporary directory (`TemporaryDirectory`), which a
    /// signal ending the command removes; fails, naming `TMPDIR`, when there is none to write in.
    package static func temporaryTracePath(_ purpose: String) throws(SimEngineError) -> String {
        try TemporaryDirectory.tracePath(purpose)
    }
}
