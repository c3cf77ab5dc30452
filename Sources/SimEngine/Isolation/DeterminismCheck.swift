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

    /// Re-records `trace`'s schedule (decision by decision, the plan its header names) in a child
    /// process and compares.
    package static func replayInChild(trace: String, launcher: ProcessLauncher) throws(SimEngineError) -> Verdict {
        let header: TraceHeader
        do {
            header = try TraceReader(path: trace).header
        } catch {
            throw TraceInput.failure(error)
        }
        let path = temporaryTracePath("recheck")
        defer { unlink(path) }
        let again = try IsolatedRecording(plan: try RunPlan.Descriptor(header: header, path: trace), launcher: launcher)
            .record(seed: header.seed, schedule: .decisions(of: trace), to: path)
        let divergence = try TraceComparison(expected: trace, actual: path)
            .firstDifference(expectedLabel: "recorded", actualLabel: "re-run")
        return Verdict(again: again, divergence: divergence)
    }

    /// A fresh trace path under the temporary directory.
    package static func temporaryTracePath(_ purpose: String) -> String {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        return "\(directory)/simrun-\(purpose)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).simtrace"
    }
}
