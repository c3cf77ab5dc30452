import CSimInterpose
import SimCapture
import SimCore
import SimTrace
import Synchronization
import SystemPackage

#if canImport(Darwin)
    import MachO  // _NSGetExecutablePath (the C library itself: LibC.swift)
#endif

/// A child process: this very executable (a user's own binary built on `SimRun.main(scenarios:)`
/// re-runs itself with the same scenario catalog), another one built on it, or a program shipped
/// beside it. Children isolate what can kill a process: a model that traps takes its child down,
/// never the command the user ran.
///
/// The one place simrun starts processes: `posix_spawn` (the child in its own process group, its
/// environment pinned), pipes read with `poll` on the calling thread (no task, no other thread:
/// safe from any caller, a test on the cooperative pool included). POSIX, with the Linux/Darwin
/// differences behind `#if`. A fuzz worker inherits the campaign board on descriptor 3, and the
/// supervisor multiplexes many workers' pipes in one loop (`WorkerPool`); every other child is run
/// to its end by ``run(_:input:executable:captureOutput:timeoutSeconds:environment:cancellation:)``.
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
        /// A cancellation was passed on to the child while it ran.
        package var cancelled = false
    }

    package let pid: pid_t
    /// The read ends of the child's stdout and stderr, -1 once closed (or never piped).
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
    /// never be re-executed with simrun arguments. Process-wide on purpose: it describes the process
    /// (which binary it is), not where work runs (an ``Isolation`` value says that).
    private static let isSelf = Atomic<Bool>(false)

    package static func markSelfExecutable() { isSelf.store(true, ordering: .relaxed) }

    /// Whether this process is a binary built on `SimRun.main` (its build id names a build of the
    /// user's scenarios; it may start children of itself).
    package static var isSelfExecutable: Bool { isSelf.load(ordering: .relaxed) }

    /// In one of simrun's own child processes: ends this process when its parent dies, however it
    /// dies, so that no child outlives the command the user ran. Runs that never end are given up
    /// (`RunStallGuard`), so that no child outlives its usefulness.
    package static func bindLifetimeToParent() {
        simrun_die_with_parent()
        RunStallGuard.arm()
    }

    /// Kills every child process this process started and has not yet waited for (their process
    /// groups). Async-signal-safe: the interruption handler calls it before exiting at once.
    package static func killAllChildren() { _ = simrun_children_kill_all() }

    /// The most a child's stdin (`input`) may hold: below every platform's pipe buffer (Linux 64 KiB,
    /// Darwin 16 KiB at least), so writing it never waits for the child.
    package static let maxInput = 8_192

    /// What a child may print before the rest is dropped (a shrink prints a few lines; a trap a page).
    private static let outputLimit = 16 << 20

    /// Starts `<executable> <arguments>` (nil: this executable, which must be built on `SimRun.main`)
    /// in its own process group (a Ctrl-C on the terminal reaches only the parent, which stops
    /// children in order). `inherit` maps child descriptors to ours; `captureOutput` pipes stdout and
    /// stderr to this process (else the child writes to ours). `input`, when given, is the child's
    /// whole stdin (at most `maxInput` bytes, written before the child reads it); else stdin is
    /// /dev/null. `environment` adds or replaces variables (the allocation bench's `LD_PRELOAD`).
    package static func spawn(
        _ arguments: [String], executable other: String? = nil, inherit: [(child: Int32, parent: Int32)] = [],
        input: [UInt8]? = nil, captureOutput: Bool = true, environment extra: [String: String] = [:]
    ) throws(SimEngineError) -> ChildProcess {
        guard (input?.count ?? 0) <= maxInput else {
            throw SimEngineError(.usage, "a child's job is \(input?.count ?? 0) bytes (most \(maxInput)): is a path that long?")
        }
        guard isSelfExecutable || other != nil else {
            throw SimEngineError(
                .usage, "this needs process isolation, which only a binary built on SimRun.main provides")
        }
        let executable = other ?? Self.executable
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        var inPipe: [Int32] = [-1, -1]
        guard !captureOutput || (pipe(&outPipe) == 0 && pipe(&errPipe) == 0), input == nil || pipe(&inPipe) == 0 else {
            let code = errno
            for fd in outPipe + errPipe + inPipe where fd >= 0 { close(fd) }
            throw SimEngineError(
                .cannotWrite, "cannot create a pipe for a child process: \(Errno(rawValue: code))\(Self.limitHint(code))")
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
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        }
        for (child, parent) in inherit { posix_spawn_file_actions_adddup2(&actions, parent, child) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        // argv[0] stays the name the user ran, so a child prints the same command names.
        let argv = ([other ?? CommandLine.arguments.first ?? "simrun"] + arguments).map { strdup($0) }
        defer { for pointer in argv { free(pointer) } }
        let environment = childEnvironment(extra).map { strdup($0) }
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environment + [nil])
        for fd in [outPipe[1], errPipe[1], inPipe[0]] where fd >= 0 { close(fd) }
        // Listed before it is given its job; refused once this process is ending (a signal's
        // handler already asked every listed child to stop): then it never starts work.
        if status == 0 && simrun_children_add(pid) == 0 {
            kill(pid, SIGKILL)
            for fd in [outPipe[0], errPipe[0], inPipe[1]] where fd >= 0 { close(fd) }
            throw SimEngineError(.interrupted, "not started: the command is ending at a signal")
        }
        if let input, inPipe[1] >= 0 {
            // Fits the pipe's buffer (`maxInput`): written whole before the child reads a byte. A child
            // that failed to start reads nothing; its pipe end is closed, so this write fails, not blocks.
            if status == 0 { try? SystemIO.writeAll(inPipe[1], input) }
            close(inPipe[1])
        }
        guard status == 0 else {
            for fd in [outPipe[0], errPipe[0]] where fd >= 0 { close(fd) }
            throw SimEngineError(
                .cannotWrite, "cannot start \(executable): \(Errno(rawValue: status))\(Self.limitHint(status))")
        }
        return ChildProcess(pid: pid, stdoutFD: outPipe[0], stderrFD: errPipe[0])
    }

    /// For `EMFILE`: the process's descriptor limit and what to do (empty for other errors).
    package static func limitHint(_ code: Int32) -> String {
        guard code == EMFILE || code == ENFILE else { return "" }
        var limit = rlimit()
        let soft = getrlimit(openFilesResource, &limit) == 0 ? " (ulimit -n is \(limit.rlim_cur))" : ""
        return "\(soft): simrun's child processes need more open files; raise the limit (ulimit -n 1024) or use fewer --jobs"
    }

    /// The child's environment: this process's, without a backtracer (it takes a while and prints
    /// pages; a trapped child only needs its message) and with the hash seed pinned (a `Set`'s order
    /// is the same in every process), plus `extra`.
    private static func childEnvironment(_ extra: [String: String]) -> [String] {
        var entries = ["SWIFT_BACKTRACE=enable=no", HashSeed.environmentEntry]
        var replaced = ["SWIFT_BACKTRACE", HashSeed.environmentKey]
        // In the caller's order of keys, never a dictionary's.
        for key in extra.keys.sorted() {
            entries.append("\(key)=\(extra[key] ?? "")")
            replaced.append(key)
        }
        let inherited = Self.environment
        var index = 0
        while let entry = inherited[index] {
            let text = String(cString: entry)
            let key = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if !replaced.contains(key) { entries.append(text) }
            index += 1
        }
        return entries
    }

    /// Runs `<executable> <arguments>` to its end on this thread (spawn, poll the pipes, wait) and
    /// says how it ended, with what it printed when `captureOutput` (else it printed to this
    /// process's stdout and stderr). Killed after `timeoutSeconds`. When `cancellation` is requested
    /// while it runs, it is passed on as SIGINT (a child stops like the command it works for) and
    /// the child is killed if it has not ended 3 s later.
    package static func run(
        _ arguments: [String], input: [UInt8] = [], executable: String? = nil, captureOutput: Bool = true,
        timeoutSeconds: Double = 300, environment: [String: String] = [:], cancellation: Cancellation? = nil,
        onStdoutLine: ((Substring) -> Void)? = nil
    ) throws(SimEngineError) -> Output {
        var child = try spawn(
            arguments, executable: executable, input: input.isEmpty ? nil : input, captureOutput: captureOutput,
            environment: environment)
        var out: [UInt8] = []
        var err: [UInt8] = []
        var scanned = 0  // `out` up to here was handed to `onStdoutLine`
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutSeconds * 1000))
        var killed = false
        var passedOn: ContinuousClock.Instant?
        var status: Int32?
        while status == nil {
            let now = ContinuousClock.now
            if passedOn == nil, let cancellation, cancellation.isRequested {
                kill(child.pid, SIGINT)
                passedOn = now
            }
            if !killed && (now > deadline || passedOn.map { now - $0 > .seconds(3) } ?? false) {
                kill(child.pid, SIGKILL)
                killed = true
            }
            let streams = child.openStreams.map { ((), $0, child.descriptor($0)) }
            if streams.isEmpty {
                status = SystemIO.childStatus(child.pid, waiting: false)
                if status == nil { usleep(20_000) }
                continue
            }
            for (_, stream) in waitForOutput(streams, timeoutMilliseconds: 50) {
                let bytes = child.read(stream)
                if stream == .stdout {
                    if out.count < outputLimit { out += bytes }
                    // Each line as it comes, while the child still runs (before it is reaped).
                    while let onStdoutLine, let newline = out[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                        onStdoutLine(Substring(decoding: out[scanned..<newline], as: UTF8.self))
                        scanned = newline + 1
                    }
                } else if err.count < outputLimit {
                    err += bytes
                }
            }
        }
        simrun_children_remove(child.pid)
        return Output(
            termination: termination(status ?? 0), stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), cancelled: passedOn != nil)
    }

    /// Waits for the child to end.
    func wait() -> Termination {
        let status = SystemIO.childStatus(pid, waiting: true) ?? 0
        simrun_children_remove(pid)
        return Self.termination(status)
    }

    /// How a child ended, from its raw wait status (the wait-status macros are not imported into
    /// Swift: decoded by hand).
    private static func termination(_ status: Int32) -> Termination {
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
}

extension ChildProcess {
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
    /// it (`BlueprintView.updateViewHierarchyIfNeeded()`), a function of a shared library after its
    /// file name (`libdispatch.so: dispatch_group_leave`, see ``CrashPlace/library``); empty when
    /// the child wrote none.
    package static func trapFrames(in stderr: String) -> [String] {
        let marker = "simrun-trap-frames:"
        guard let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix(marker) }) else { return [] }
        var frames: [String] = []
        var previous: String?
        for token in line.dropFirst(marker.count).split(separator: " ") {
            let parts = token.split(separator: "|", maxSplits: 1).map(String.init)
            // A compiler-made part of a function (`dispatch_group_leave.cold.1`, `.part.0`) is that
            // function: no symbol, Swift's or C's, has a dot of its own.
            let symbol = String((parts.first ?? "?").prefix { $0 != "." })
            let library = parts.count > 1 ? parts[1] : nil
            // The trap's way down (the runtime, the C library) and the unknown in the main program.
            guard !CodeSymbol.isRuntime(symbol), !(library.map(CrashPlace.isTrapMachinery) ?? false) else { continue }
            guard symbol != "?" || library != nil else { continue }
            // simrun's own code: below the program's frames it is the scheduler that ran them.
            if library == nil, Self.isSimrunSymbol(symbol) {
                if frames.isEmpty { continue } else { break }
            }
            let function = symbol == "?" ? "(a function without a symbol)" : CodeSymbol.function(ofSymbol: symbol)
            // The compiler's glue between a closure and its caller says nothing about where.
            if function.hasPrefix("reabstraction thunk") || function.hasPrefix("thunk for ") { continue }
            // simrun's interposer of a library function (in the main program) calls the real one.
            if library == nil, function == previous { continue }
            previous = function
            let name = CrashPlace.frameName(function, library: library)
            if frames.last != name { frames.append(name) }
            if frames.count == maxTrapFrames { break }
        }
        return frames
    }

    /// Whether a main-program symbol is simrun's own: its C interposition layer (`simrun_…`) or its
    /// Swift kernel and engine.
    static func isSimrunSymbol(_ symbol: String) -> Bool {
        symbol.hasPrefix("simrun_") || symbol.hasPrefix("$s7SimCore") || symbol.hasPrefix("$s9SimEngine")
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

    /// This process's environment (`environ`; Darwin hands it out through `_NSGetEnviron`).
    package static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
        #if canImport(Darwin)
            return _NSGetEnviron()!.pointee!
        #else
            return environ
        #endif
    }
}

extension ChildProcess {
    /// Runs another program shipped beside this executable (`simrun-bench-baseline`) to the end,
    /// collecting its output; kills it after `timeoutSeconds`. Throws when there is no such program.
    package static func runSibling(_ name: String, _ arguments: [String], timeoutSeconds: Double = 300)
        throws(SimEngineError) -> Output
    {
        let path = siblingPath(name)
        guard access(path, X_OK) == 0 else {
            throw SimEngineError(.usage, "\(path) is not there: build it (`swift build --product \(name)`)")
        }
        return try run(arguments, executable: path, timeoutSeconds: timeoutSeconds)
    }

    /// The path of `name` in this executable's directory (where SwiftPM puts the package's other
    /// products), whether or not it is there.
    package static func siblingPath(_ name: String) -> String {
        let directory = String(
            executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        return (executable == "/proc/self/exe" ? selfDirectory() : directory) + "/" + name
    }

    /// The directory of the running binary (Linux: `/proc/self/exe` resolved).
    private static func selfDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "." }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
    }
}
