#if canImport(Glibc)
    import Glibc
#endif

/// Runs this executable again with other arguments and reports the child's peak resident memory,
/// so that a measurement is not polluted by what the benchmark itself has allocated.
enum PeakMemoryProbe {
    struct Outcome {
        /// The child's peak resident set size in bytes (`ru_maxrss`).
        var peakBytes: UInt64
        var exitStatus: Int32
    }

    /// Spawns `/proc/self/exe` with `arguments` (stdout and stderr inherited) and waits for it.
    static func run(_ arguments: [String]) -> Outcome? {
        let executable = "/proc/self/exe"
        var cArguments: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) }
        defer { for pointer in cArguments { free(pointer) } }
        cArguments.append(nil)
        var pid: pid_t = 0
        let spawned = cArguments.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let argv = buffer.baseAddress else { return -1 }
            return posix_spawn(&pid, executable, nil, nil, argv, environ)
        }
        guard spawned == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { return nil }
        }
        // WIFEXITED/WEXITSTATUS are macros Swift cannot see.
        let exited = status & 0x7F == 0
        return Outcome(peakBytes: UInt64(usage.ru_maxrss) * 1024, exitStatus: exited ? (status >> 8) & 0xFF : -1)
    }
}
