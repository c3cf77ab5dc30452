import CSimInterpose
import Dispatch
import Subprocess
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Children run to the end (a shrink, a recording, a re-run, a memory probe) go through
/// swift-subprocess: it spawns portably (posix_spawn on Linux and Darwin alike, the child in its own
/// process group, the environment edited by key) and collects both pipes. Only the fuzz workers keep
/// `ChildProcess.spawn`: they inherit the board on descriptor 3, which swift-subprocess 1.0.2 cannot
/// pass down, and the supervisor polls many of them in one synchronous loop.
extension ChildProcess {
    /// Runs `simrun <arguments>` to the end, collecting its output; kills it after `timeoutSeconds`.
    /// `executable` names another binary built on `SimRun.main` to run instead of this one (a test
    /// process, which is not simrun, replays through the package's own executable).
    /// `input` is the child's whole stdin (a typed request; at most `ChildProcess.maxInput` bytes).
    /// `environment` adds or replaces variables of the child's environment (the allocation bench's
    /// `LD_PRELOAD`). With `forwardingInterruption`, Ctrl-C and SIGTERM reach the child as in
    /// `runInheritingOutput` (a child that stops like the command it works for).
    package static func run(
        _ arguments: [String], input: [UInt8] = [], executable: String? = nil, timeoutSeconds: Double = 300,
        environment: [String: String] = [:], forwardingInterruption: Bool = false
    ) throws(SimEngineError) -> Output {
        // A foreign caller (a test process) may be on the cooperative pool, where waiting for an
        // async subprocess could starve it: it collects the child synchronously instead.
        if let executable {
            return try collect(arguments, input: input, executable: executable, timeoutSeconds: timeoutSeconds)
        }
        let result = try complete(
            arguments, executable: executable, input: input, output: .string(limit: outputLimit),
            error: .string(limit: outputLimit), timeoutSeconds: timeoutSeconds,
            forwardingInterruption: forwardingInterruption, environment: environment)
        return Output(termination: result.termination, stdout: result.stdout, stderr: result.stderr)
    }

    /// Runs `simrun <arguments>` to the end with this process's stdout and stderr (a benchmark child
    /// that reports for itself); kills it after `timeoutSeconds`.
    ///
    /// With `forwardingInterruption`, Ctrl-C and SIGTERM reach the child: the child runs in its own
    /// process group (the terminal's Ctrl-C reaches only this process), so this process installs
    /// `Interruption` and passes the first request on as SIGINT, then ends the child if it has not
    /// ended 3 s later. A command run in a child (`CommandChild`) stops like itself. `input` is the
    /// child's whole stdin (a typed request).
    package static func runInheritingOutput(
        _ arguments: [String], input: [UInt8] = [], timeoutSeconds: Double = 600,
        forwardingInterruption: Bool = false
    ) throws(SimEngineError) -> Termination {
        if forwardingInterruption { Interruption.install() }
        return try complete(
            arguments, executable: nil, input: input, output: .currentStandardOutput, error: .currentStandardError,
            timeoutSeconds: timeoutSeconds, forwardingInterruption: forwardingInterruption
        ).termination
    }

    /// Runs another program shipped beside this executable (`simrun-bench-baseline`) to the end,
    /// collecting its output; kills it after `timeoutSeconds`. Throws when there is no such program.
    package static func runSibling(_ name: String, _ arguments: [String], timeoutSeconds: Double = 300)
        throws(SimEngineError) -> Output
    {
        let path = siblingPath(name)
        guard access(path, X_OK) == 0 else {
            throw SimEngineError(.usage, "\(path) is not there: build it (`swift build --product \(name)`)")
        }
        let result = try complete(
            arguments, executable: path, output: .string(limit: outputLimit), error: .string(limit: outputLimit),
            timeoutSeconds: timeoutSeconds)
        return Output(termination: result.termination, stdout: result.stdout, stderr: result.stderr)
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

    /// What a child may print before it is cut off (a shrink prints a few lines; a trap a page).
    private static let outputLimit = 16 << 20

    private static func complete<Out: OutputProtocol, Err: ErrorOutputProtocol>(
        _ arguments: [String], executable other: String?, input: [UInt8] = [], output: Out, error: Err,
        timeoutSeconds: Double, forwardingInterruption: Bool = false, environment extra: [String: String] = [:]
    ) throws(SimEngineError) -> (termination: Termination, stdout: Out.OutputType, stderr: Err.OutputType)
    where Out.OutputType: Sendable, Err.OutputType: Sendable {
        guard isAvailable || other != nil else {
            throw SimEngineError(
                .usage, "this needs process isolation, which only a binary built on SimRun.main provides")
        }
        let executable = other ?? Self.executable
        var options = PlatformOptions()
        // Its own process group: a Ctrl-C on the terminal reaches only the parent, which stops children.
        options.processGroupID = 0
        let configuration = Configuration(
            executable: .path(FilePath(executable)),
            // argv[0] stays the name the user ran, so the child prints the same command names.
            arguments: Arguments(
                executablePathOverride: CommandLine.arguments.first ?? "simrun", remainingValues: arguments),
            // The Swift backtracer takes a while and prints pages; a trapped child only needs its message.
            environment: .inherit.updating(childEnvironment(extra)),
            platformOptions: options)
        let timeout = Duration.milliseconds(Int64(timeoutSeconds * 1000))
        let started = StartedProcess()
        let outcome = blocking { () async throws -> (TerminationStatus, Out.OutputType, Err.OutputType) in
            return try await withThrowingTaskGroup(of: (TerminationStatus, Out.OutputType, Err.OutputType)?.self) {
                group in
                group.addTask {
                    let result = try await Subprocess.run(
                        configuration, input: .array(input), output: output, error: error,
                        body: { execution in started.set(execution.processIdentifier.value) })
                    return (result.terminationStatus, result.standardOutput, result.standardError)
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    started.kill()
                    return nil
                }
                if forwardingInterruption {
                    group.addTask {
                        while !Interruption.isRequested { try await Task.sleep(for: .milliseconds(20)) }
                        started.signal(SIGINT)
                        try await Task.sleep(for: .seconds(3))
                        started.kill()
                        return nil
                    }
                }
                while let next = try await group.next() {
                    if let finished = next {
                        group.cancelAll()
                        return finished
                    }
                }
                throw CancellationError()
            }
        }
        started.finished()
        switch outcome {
        case .success(let (status, stdout, stderr)):
            let termination: Termination
            switch status {
            case .exited(let code): termination = .exited(code)
            case .signaled(let signal): termination = .signaled(signal)
            }
            return (termination, stdout, stderr)
        case .failure(let failure):
            throw SimEngineError(.cannotWrite, "cannot run \(executable) as a child process: \(failure)")
        }
    }

    /// The variables a child's environment changes: no backtracer, the hash seed pinned (a `Set`'s
    /// order is the same in every process), plus `extra`.
    private static func childEnvironment(_ extra: [String: String]) -> [Environment.Key: String?] {
        var changes: [Environment.Key: String?] = ["SWIFT_BACKTRACE": "enable=no"]
        if let key = Environment.Key(rawValue: HashSeed.environmentKey) { changes[key] = "1" }
        for (name, value) in extra {
            if let key = Environment.Key(rawValue: name) { changes[key] = value }
        }
        return changes
    }

    /// Waits on this thread for `operation`, run as a task. Only for synchronous callers that are not
    /// themselves on the cooperative pool: children are started only by a binary built on
    /// `SimRun.main` (`isAvailable`), whose commands run synchronously on the main thread.
    private static func blocking<T: Sendable>(
        _ operation: @escaping @Sendable () async throws -> T
    ) -> Result<T, any Error> {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                box.set(.success(try await operation()))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        return box.get()
    }
}

/// The process id of a child once it started, for the timeout to kill it.
private final class StartedProcess: Sendable {
    private let pid = Mutex<pid_t?>(nil)

    func set(_ value: pid_t) {
        pid.withLock { $0 = value }
        simrun_children_add(value)
    }

    /// The child ended (or never started): unlist it.
    func finished() {
        guard let value = pid.withLock({ $0 }) else { return }
        simrun_children_remove(value)
    }

    /// Kills the child if it started (the timeout ran out before it ended).
    func kill() { signal(SIGKILL) }

    /// Sends `number` to the child if it started.
    func signal(_ number: Int32) {
        guard let value = pid.withLock({ $0 }) else { return }
        _ = sendSignal(value, number)
    }
}

/// A result handed from a task to the thread waiting for it.
private final class ResultBox<T: Sendable>: Sendable {
    private let value = Mutex<Result<T, any Error>?>(nil)

    func set(_ result: Result<T, any Error>) { value.withLock { $0 = result } }

    func get() -> Result<T, any Error> {
        value.withLock { $0 } ?? .failure(CancellationError())
    }
}

/// `kill(2)`, named apart from `StartedProcess.kill`.
private func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 { kill(pid, signal) }
