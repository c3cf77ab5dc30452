import SimCore
import SimTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a schedule again in a new process and compares the events: a model that reads the wall
/// clock, or iterates a `Set` (whose order follows a per-process hash seed), records different events
/// there. The only way to catch the second is a separate process.
package enum DeterminismCheck {
    /// The result of a second run in a child.
    package struct Verdict {
        package var again: IsolatedRecording.Outcome
        /// The first divergent event with context; nil when the events are identical.
        package var divergence: [String]?
    }

    /// Re-records `trace`'s schedule (followed by job identity) in a child process and compares.
    package static func replayInChild(trace: String) throws(SimEngineError) -> Verdict {
        let header: TraceHeader
        do {
            header = try TraceReader(path: trace).header
        } catch {
            throw TraceInput.failure(error)
        }
        let path = try temporaryTracePath("recheck")
        defer { unlink(path) }
        let again = try IsolatedRecording(
            scenario: header.scenario, variant: header.variant, strategy: header.strategy,
            noise: try TraceInput.noise(of: header, path: trace), estimatedSteps: TraceInput.estimatedSteps(of: header),
            carriers: try TraceInput.carriers(of: header, path: trace)
        )
        .record(seed: header.seed, tapeFrom: trace, to: path)
        let divergence = try TraceComparison(expected: trace, actual: path)
            .firstDifference(expectedLabel: "recorded", actualLabel: "re-run")
        return Verdict(again: again, divergence: divergence)
    }

    /// A fresh trace path in this process's temporary directory (`TemporaryDirectory`), which a
    /// signal ending the command removes; fails, naming `TMPDIR`, when there is none to write in.
    package static func temporaryTracePath(_ purpose: String) throws(SimEngineError) -> String {
        try TemporaryDirectory.tracePath(purpose)
    }
}
