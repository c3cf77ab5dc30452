import SimCore
import SimTrace

/// An in-order campaign (`inOrder` or `exhaustive` strategies: one strategy object learning or
/// walking from run to run) cannot be split over worker processes, so it runs in one child, and a
/// trap there ends that child only. These are the two pieces that turn such a trap into a finding:
/// the child marks each run before it starts (`RunMarker`), and a second child re-runs the campaign
/// (deterministically, so it learns the same) up to the marked run and records that one with a
/// checkpointing sink (`InOrderRecording`), sealed by the parent up to the trap.
package final class RunMarker: @unchecked Sendable {
    private let fd: Int32

    /// A marker writing to `path` (created or emptied).
    package init(path: String) throws(SimEngineError) {
        do {
            fd = try SystemIO.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
        } catch {
            throw SimEngineError(.cannotWrite, "cannot create \(path): \(error)")
        }
    }

    deinit { close(fd) }

    /// Marks run number `run` (from 0), of `seed`, as the one running now: two words at offset 0,
    /// one `pwrite` (no buffering, so the mark survives the process dying right after).
    package func mark(run: Int, seed: UInt64) {
        var words: (UInt64, UInt64) = (UInt64(run), seed)
        // A mark that cannot be written leaves the previous one: the crash is then said to be at the
        // run marked last, and the re-run that records it finds another seed and says so.
        withUnsafeBytes(of: &words) { try? SystemIO.writeAll(fd, $0, at: 0) }
    }

    /// The last run a marker at `path` marked; nil when none was.
    package static func read(path: String) -> (run: Int, seed: UInt64)? {
        guard let fd = try? SystemIO.open(path, O_RDONLY) else { return nil }
        defer { close(fd) }
        var words: (UInt64, UInt64) = (0, 0)
        let count = withUnsafeMutableBytes(of: &words) { (try? SystemIO.read(fd, into: $0, at: 0)) ?? -1 }
        guard count == 16, let run = Int(exactly: words.0) else { return nil }
        return (run, words.1)
    }
}

/// The run of an in-order campaign to record (with `sink`), after which the campaign stops.
package final class InOrderRecording: @unchecked Sendable {
    package let run: Int
    package let sink: any EventSink
    /// The recorded run's result, once it ran to its end.
    package var result: RunResult?
    /// Its seed, once it started.
    package var seed: UInt64?

    package init(run: Int, sink: any EventSink) {
        self.run = run
        self.sink = sink
    }
}
