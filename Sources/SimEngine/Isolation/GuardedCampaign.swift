import SimCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SimEngineError(.cannotWrite, "cannot create \(path): errno \(errno)") }
    }

    deinit { close(fd) }

    /// Marks run number `run` (from 0), of `seed`, as the one running now: two words at offset 0,
    /// one `pwrite` (no buffering, so the mark survives the process dying right after).
    package func mark(run: Int, seed: UInt64) {
        var words: (UInt64, UInt64) = (UInt64(run), seed)
        _ = withUnsafeBytes(of: &words) { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// The last run a marker at `path` marked; nil when none was.
    package static func read(path: String) -> (run: Int, seed: UInt64)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var words: (UInt64, UInt64) = (0, 0)
        let count = withUnsafeMutableBytes(of: &words) { pread(fd, $0.baseAddress, $0.count, 0) }
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
