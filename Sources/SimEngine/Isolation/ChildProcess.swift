import CSimInterpose
import SimCore
import SimTrace
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
    import MachO  // _NSGetExecutablePath
#endif

/// A child process of this very executable, so that a user's own binary built on
/// `SimRun.main(scenarios:)` re-runs itself with the same scenario catalog.
///
/// Children isolate what can kill a process: a model that traps takes its child down, never the
/// command the user ran.
///
/// Children run to the end go through swift-subprocess (`ChildProcess+Subprocess.swift`). This file
/// is the one with `posix_spawn`, pipes and `poll` (POSIX, with the Linux/Darwin differences behind
/// `#if`), for the fuzz workers, where swift-subprocess does not fit: a worker inherits the shared
/// board on descriptor 3 (swift-subprocess 1.0.2 passes only stdin, stdout and stderr), and the
/// supervisor multiplexes the pipes of many workers in one synchronous loop that also watches
/// Ctrl-C and replaces dead workers (its API is `async`, one task per child).
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
    /// The read ends of the child's stdout and stderr, -1 once closed.
    private var stdoutFD: Int32
    private var stderrFD: Int32

    /// One of a child's captured output streams.
    package enum Stream: Sendable { case stdout, stderr }

    /// The streams not yet at end of file.
    package var openStreams: [Stream] {
        (stdoutFD >= 0 ? [.stdout] : []) + (stderrFD >= 0 ? [.stderr] : [])
    }

    /// The read end of `stream`'s pipe (-1 once closed).
    package func descriptor(_ stream: Stream) -> Int32 { stream == .stdout ? stdoutFD : stderrFD }

    /// Reads what `stream` has (call it when `waitForOutput` said so); closes the stream at end of
    /// file or on an error, returning nothing.
    package mutating func read(_ stream: Stream) -> ArraySlice<UInt8> {
        let fd = descriptor(stream)
        guard fd >= 0 else { return [] }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let read = chunk.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try SystemIO.read(fd, into: raw) }
        }
        switch read {
        case .success(let count) where count > 0: return chunk[0..<count]
        // Nothing there yet (a non-blocking pipe): not its end.
        case .failure(let error) where error == .wouldBlock || error == .resourceTemporarilyUnavailable: return []
        default: break
        }
        close(fd)
        if stream == .stdout { stdoutFD = -1 } else { stderrFD = -1 }
        return []
    }

    /// Waits up to `timeoutMilliseconds` for any of `streams` to have output (or end), and returns
    /// those that do, with their owners.
    package static func waitForOutput<Owner>(
        _ streams: [(owner: Owner, stream: Stream, descriptor: Int32)], timeoutMilliseconds: Int32
    ) -> [(Owner, Stream)] {
        var fds = streams.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), timeoutMilliseconds) > 0 else { return [] }
        return zip(streams, fds).compactMap { entry, polled in
            polled.revents != 0 ? (entry.owner, entry.stream) : nil
        }
    }

    /// The executable to re-run: this process's own binary (found once; immutable after).
    package static let executable: String = {
        #if os(Linux)
            // The running binary even if its file was replaced or it was started by a relative path.
            return "/proc/self/exe"
        #elseif canImport(Darwin)
            var size: UInt32 = 0
            _ = _NSGetExecutablePath(nil, &size)
            var buffer = [CChar](repeating: 0, count: Int(size) + 1)
            guard _NSGetExecutablePath(&buffer, &size) == 0 else { return CommandLine.arguments.first ?? "simrun" }
            return String(cString: buffer)
        #else
            return CommandLine.arguments.first ?? "simrun"
        #endif
    }()

    /// Set by `SimRun.main` only: then `executable` understands simrun's command line. A process
    /// that runs commands in-process (a test calling `SimRun.run`) is some other binary, which must
    /// never be re-executed with simrun arguments. Process-wide on purpose: it describes the process.
    private static let isSelfExecutable = Atomic<Bool>(false)

    package static func markSelfExecutable() { isSelfExecutable.store(true, ordering: .relaxed) }

    /// In one of simrun's own child processes (`_worker`, `_record`, …): ends this process when its
    /// parent dies, however it dies, so that no child outlives the command the user ran.
    /// Runs that never end are given up (`RunStallGuard`), so that no child outlives its usefulness.
    package static func bindLifetimeToParent() {
        simrun_die_with_parent()
        RunStallGuard.arm()
    }

    /// Kills every child process this process started and has not yet waited for (their process
    /// groups). Async-signal-safe: the interruption handler calls it before exiting at once.
    package static func killAllChildren() { _ = simrun_children_kill_all() }

    /// Whether commands can run parts of their work in child processes (false when the command tree
    /// runs inside another program, e.g. a test calling `SimRun.run`: then they run in-process).
    package static var isAvailable: Bool { isSelfExecutable.load(ordering: .relaxed) }

    /// Starts `simrun <arguments>` as a child in its own process group (a Ctrl-C on the terminal
    /// reaches only the parent, which stops children in order). `inherit` maps child fds to ours.
    /// `input`, when given, is the child's whole stdin (at most `maxInput` bytes: it is written into
    /// the pipe before the child reads it, so it must fit the pipe's buffer); else stdin is /dev/null.
    static func spawn(
        _ arguments: [String], inherit: [(child: Int32, parent: Int32)] = [], input: [UInt8]? = nil,
        executable other: String? = nil
    ) throws(SimEngineError) -> ChildProcess {
        precondition((input?.count ?? 0) <= maxInput, "a child's stdin is at most \(maxInput) bytes")
        let executable = other ?? Self.executable
        guard isSelfExecutable.load(ordering: .relaxed) || other != nil else {
            throw SimEngineError(
                .usage, "this needs process isolation, which only a binary built on SimRun.main provides")
        }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        var inPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0, input == nil || pipe(&inPipe) == 0 else {
            throw SimEngineError(.cannotWrite, "cannot create a pipe for a child process: \(Errno(rawValue: errno))")
        }
        // Only the dup2'd copies reach the child; other children must not hold these ends open.
        for fd in outPipe + errPipe + inPipe where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for (child, parent) in inherit { posix_spawn_file_actions_adddup2(&actions, parent, child) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv = ([other ?? CommandLine.arguments.first ?? "simrun"] + arguments).map { strdup($0) }
        defer { for pointer in argv { free(pointer) } }
        // The Swift backtracer takes a while and prints pages; a trapped child only needs its message.
        // A child hashes with the pinned seed, so a `Set`'s order is the same in every process.
        var environment = [strdup("SWIFT_BACKTRACE=enable=no"), strdup(HashSeed.environmentEntry)]
        let inherited = Self.environment
        var index = 0
        while let entry = inherited[index] {
            let text = String(cString: entry)
            if !text.hasPrefix("SWIFT_BACKTRACE=") && !text.hasPrefix("\(HashSeed.environmentKey)=") {
                environment.append(strdup(entry))
            }
            index += 1
        }
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environment + [nil])
        close(outPipe[1])
        close(errPipe[1])
        if inPipe[0] >= 0 { close(inPipe[0]) }
        if let input, inPipe[1] >= 0 {
            // Fits the pipe's buffer (`maxInput`): written whole before the child reads a byte. A child
            // that failed to start reads nothing; its pipe end is closed, so this write fails, not blocks.
            if status == 0 { Self.writeAll(input, to: inPipe[1]) }
            close(inPipe[1])
        }
        guard status == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw SimEngineError(.cannotWrite, "cannot start \(executable): \(Errno(rawValue: status))")
        }
        simrun_children_add(pid)
        return ChildProcess(pid: pid, stdoutFD: outPipe[0], stderrFD: errPipe[0])
    }

    /// Runs `<executable> <arguments>` to the end on this thread (spawn, poll both pipes, wait),
    /// collecting its output; kills it after `timeoutSeconds`. No task and no other thread: safe
    /// from any caller, including one on the cooperative pool.
    package static func collect(
        _ arguments: [String], input: [UInt8] = [], executable: String, timeoutSeconds: Double
    ) throws(SimEngineError) -> Output {
        var child = try spawn(arguments, input: input.isEmpty ? nil : input, executable: executable)
        var out: [UInt8] = []
        var err: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutSeconds * 1000))
        var killed = false
        while !child.openStreams.isEmpty {
            if !killed && ContinuousClock.now > deadline {
                kill(child.pid, SIGKILL)
                killed = true
            }
            let streams = child.openStreams.map { ((), $0, child.descriptor($0)) }
            for (_, stream) in waitForOutput(streams, timeoutMilliseconds: 500) {
                let bytes = child.read(stream)
                if stream == .stdout { out += bytes } else { err += bytes }
            }
        }
        return Output(
            termination: child.wait(), stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// Waits for the child to end.
    func wait() -> Termination {
        let status = SystemIO.waitForChild(pid) ?? 0
        simrun_children_remove(pid)
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

    /// Installs the trap reporter in this process (a child of simrun's): a trap writes the functions
    /// it trapped in to stderr before the process dies of it (CSimInterpose's trap.c), for
    /// ``trapFrames(in:)``. Linux only; elsewhere nothing is installed and crashes are told apart
    /// by their job and message alone.
    package static func installTrapReporter() { _ = simrun_install_trap_reporter() }

    /// The most trap frames a crash keeps: the function that trapped and a few callers, enough to
    /// meet the same code inlined differently by another build configuration.
    package static let maxTrapFrames = 4

    /// The functions a child trapped in, innermost first, from its stderr (the trap reporter's
    /// line): the Swift runtime's and the C library's frames left out, each named as a person names
    /// it (`BlueprintView.updateViewHierarchyIfNeeded()`); empty when the child wrote none.
    package static func trapFrames(in stderr: String) -> [String] {
        let marker = "simrun-trap-frames:"
        guard let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix(marker) }) else { return [] }
        let symbols = line.dropFirst(marker.count).split(separator: " ").map(String.init)
        var frames: [String] = []
        for symbol in symbols.drop(while: { $0 == "?" || CodeSymbol.isRuntime($0) }) {
            guard symbol != "?", !CodeSymbol.isRuntime(symbol) else { continue }
            let name = CodeSymbol.function(ofSymbol: symbol)
            if frames.last != name { frames.append(name) }
            if frames.count == maxTrapFrames { break }
        }
        return frames
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

extension ChildProcess {
    /// The most a child's stdin (`spawn(input:)`) may hold: below every platform's pipe buffer
    /// (Linux 64 KiB, Darwin 16 KiB at least), so writing it never waits for the child.
    static let maxInput = 8_192

    /// Writes `bytes` whole to `fd`; stops on an error (the child then reads a short request and
    /// refuses it).
    fileprivate static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        try? SystemIO.writeAll(fd, bytes)
    }
}

extension ChildProcess {
    /// This process's environment (`environ`; Darwin hands it out through `_NSGetEnviron`).
    package static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
        #if canImport(Darwin)
            return _NSGetEnviron()!.pointee!
        #else
            return environ
        #endif
    }
}
