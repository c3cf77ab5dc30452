import SimEngine

/// Runs this executable again with other arguments and reports the child's peak resident memory,
/// so that a measurement is not polluted by what the benchmark itself has allocated.
///
/// The child reports its own peak into a file: on Linux its `VmHWM` (from `/proc/self/status`), since
/// `ru_maxrss` from `wait4` is no good there (Linux carries the high-water mark across `exec`, and
/// `posix_spawn` runs the child on the parent's memory until then); on Darwin its own `ru_maxrss`.
package enum PeakMemoryProbe {
    struct Outcome {
        /// The child's peak resident set size in bytes (its `VmHWM`).
        var peakBytes: UInt64
        var exitStatus: Int32
    }

    /// Runs this executable with `arguments` plus `--report <file>` (stdout and stderr inherited),
    /// waits for it and reads the peak it reported.
    static func run(_ arguments: [String], reportPath: String) -> Outcome? {
        unlink(reportPath)
        defer { unlink(reportPath) }
        guard
            let termination = try? ChildProcess.run(
                arguments + ["--report", reportPath], captureOutput: false, timeoutSeconds: 600
            ).termination,
            let text = readSmallFile(reportPath), let kib = UInt64(text.filter(\.isNumber))
        else { return nil }
        let status: Int32
        if case .exited(let code) = termination { status = code } else { status = -1 }
        return Outcome(peakBytes: kib * 1024, exitStatus: status)
    }

    /// This process's peak resident set size in KiB, nil when the system does not say.
    package static func ownPeakKiB() -> UInt64? {
        #if os(Linux)
            guard let status = readSmallFile("/proc/self/status") else { return nil }
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                return UInt64(line.filter(\.isNumber))
            }
            return nil
        #elseif canImport(Darwin)
            // Darwin's `ru_maxrss` is in bytes and starts afresh at `exec`.
            var usage = rusage()
            guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
            return UInt64(usage.ru_maxrss) / 1024
        #else
            return nil
        #endif
    }

    private static func readSmallFile(_ path: String) -> String? {
        (try? AtomicFile.read(path, limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) }
    }
}
