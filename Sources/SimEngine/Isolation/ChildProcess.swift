import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process of this very executable (`/proc/self/exe`), so that a user's own binary built on
/// `SimRun.main(scenarios:)` re-runs itself with the same scenario catalog.
///
/// Children isolate what can kill a process: a model that traps takes its child down, never the
/// command the user ran.
package struct ChildProcess {
    /// How a child ended.
    package enum Termination: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        package var isCrash: Bool {
            if case .signaled = self { return true }
            return false
        }

        package var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signaled(let signal): "killed by signal \(signal) (\(ChildProcess.signalName(signal)))"
            }
        }
    }

    /// What a finished child printed and how it ended.
    package struct Output {
        package var termination: Termination
        package var stdout: String
        package var stderr: String
    }

    package let pid: pid_t
    /// The read ends of the child's stdout and stderr (when captured).
    package let stdoutFD: Int32
    package let stderrFD: Int32

    /// The executable to re-run: this process's own binary.
    package static let executable = "/proc/self/exe"

    /// Set by `SimRun.main` only: then `/proc/self/exe` understands simrun's command line. A process
    /// that runs commands in-process (a test calling `SimRun.run`) is some other binary, which must
    /// never be re-executed with simrun arguments. Process-wide on purpose: it describes the process.
    private static let isSelfExecutable = Atomic<Bool>(false)

    package static func markSelfExecutable() { isSelfExecutable.store(true, ordering: .relaxed) }

    /// Whether commands can run parts of their work in child processes (false when the command tree
    /// runs inside another program, e.g. a test calling `SimRun.run`: then they run in-process).
    package static var isAvailable: Bool { isSelfExecutable.load(ordering: .relaxed) }

    /// Starts `simrun <arguments>` as a child in its own process group (a Ctrl-C on the terminal
    /// reaches only the parent, which stops children in order). `inherit` maps child fds to ours.
    static func spawn(_ arguments: [String], inherit: [(child: Int32, parent: Int32)] = []) throws(CommandFailure)
        -> ChildProcess
    {
        guard isSelfExecutable.load(ordering: .relaxed) else {
            throw CommandFailure(
                ExitStatus.usage, "this needs process isolation, which only a binary built on SimRun.main provides")
        }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw CommandFailure(ExitStatus.cannotWrite, "cannot create a pipe for a child process: errno \(errno)")
        }
        // Only the dup2'd copies reach the child; other children must not hold these ends open.
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for (child, parent) in inherit { posix_spawn_file_actions_adddup2(&actions, parent, child) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv = ([CommandLine.arguments.first ?? "simrun"] + arguments).map { strdup($0) }
        defer { for pointer in argv { free(pointer) } }
        // The Swift backtracer takes a while and prints pages; a trapped child only needs its message.
        var environment = [strdup("SWIFT_BACKTRACE=enable=no")]
        var index = 0
        while let entry = environ[index] {
            if !String(cString: entry).hasPrefix("SWIFT_BACKTRACE=") { environment.append(strdup(entry)) }
            index += 1
        }
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environment + [nil])
        close(outPipe[1])
        close(errPipe[1])
        guard status == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw CommandFailure(ExitStatus.cannotWrite, "cannot start a child process: errno \(status)")
        }
        return ChildProcess(pid: pid, stdoutFD: outPipe[0], stderrFD: errPipe[0])
    }

    /// Runs `simrun <arguments>` to the end, collecting its output; kills it after `timeoutSeconds`.
    package static func run(_ arguments: [String], timeoutSeconds: Double = 300) throws(CommandFailure) -> Output {
        let child = try spawn(arguments)
        var out: [UInt8] = []
        var err: [UInt8] = []
        var open = [child.stdoutFD, child.stderrFD]
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutSeconds * 1000))
        var killed = false
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
            for entry in fds where entry.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let count = read(entry.fd, &chunk, chunk.count)
                if count > 0 {
                    if entry.fd == child.stdoutFD { out += chunk[0..<count] } else { err += chunk[0..<count] }
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
            if !killed && ContinuousClock.now > deadline {
                kill(child.pid, SIGKILL)
                killed = true
            }
        }
        let termination = child.wait()
        return Output(
            termination: termination, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// Waits for the child to end.
    func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // The wait-status macros are not imported into Swift: decode the status by hand.
        let signal = status & 0x7F
        if signal == 0 { return .exited((status >> 8) & 0xFF) }
        return .signaled(signal)
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "signal \(signal)"
        }
    }

    /// The runtime's one-line reason for a trap, from a child's stderr: "Precondition failed: …",
    /// "Fatal error: …" (without the source location). Optimized builds print none.
    package static func trapMessage(in stderr: String) -> String? {
        let markers = ["Precondition failed", "Fatal error", "Assertion failed", "Unexpectedly found nil"]
        for line in stderr.split(separator: "\n") {
            for marker in markers {
                if let range = line.firstRange(of: marker) {
                    let text = line[range.lowerBound...]
                    return String(text.prefix(500))
                }
            }
        }
        return nil
    }
}
