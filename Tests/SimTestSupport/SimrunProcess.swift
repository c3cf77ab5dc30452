import Foundation

/// Runs the built `simrun` executable as a separate process (the CLI is tested as users run it).
public struct SimrunProcess {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// The process did not end within its bound and was killed.
        public var wasKilled = false
    }

    /// The `simrun` binary next to the test bundle in the build directory.
    public static var executable: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("simrun")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let selfExe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return selfExe.appendingPathComponent("simrun")
    }

    /// Runs `simrun` with `arguments` in `directory` (by default a fresh temporary one, removed when the
    /// process has ended, so nothing is written into the package or left behind), with a time limit so
    /// that a hang fails the test. `environment`, when given, is added to this process's environment
    /// with every batch engine's shard variable removed (`SLURM_*`, `JOB_COMPLETION_INDEX`,
    /// `SIMRUN_SHARD*`), so a test of `--shard auto` sees only what it sets.
    public static func run(
        _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 120,
        environment: [String: String]? = nil
    ) throws -> Output {
        try run(executable: executable, arguments, in: directory, timeout: timeout, environment: environment)
    }

    /// `run` of another executable of the package (a user's own, a build fixture) or any program.
    public static func run(
        executable: URL, _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 120,
        environment: [String: String]? = nil
    )
        throws -> Output
    {
        let scratch = directory == nil ? try makeTemporaryDirectory("simrun-cwd") : nil
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        let out = Pipe()
        let err = Pipe()
        let process = try start(
            arguments, executable: executable, in: directory ?? scratch!, environment: environment, stdout: out,
            stderr: err)
        let output = collect(process, stdout: out, stderr: err, killingAfter: timeout)
        if output.wasKilled { throw TimedOut(arguments: arguments) }
        return output
    }

    /// This process's environment with `environment` added and every batch engine's shard variable
    /// removed.
    static func adding(_ environment: [String: String]) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment.filter { name, _ in
            !name.hasPrefix("SLURM_") && !name.hasPrefix("SIMRUN_SHARD") && name != "JOB_COMPLETION_INDEX"
        }
        return inherited.merging(environment) { $1 }
    }

    /// Starts `executable` (by default `simrun`) with `arguments` in `directory` and returns it
    /// running, for a test that signals it, feeds its stdin or sends its output to a file, a device
    /// or a FIFO. `environment` is added as `run` adds it; each stream is the null device unless a
    /// `Pipe` or `FileHandle` is given.
    public static func start(
        _ arguments: [String], executable: URL = SimrunProcess.executable, in directory: URL,
        environment: [String: String]? = nil, stdin: Any? = nil, stdout: Any? = nil, stderr: Any? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = adding(environment) }
        process.standardInput = stdin ?? FileHandle.nullDevice
        process.standardOutput = stdout ?? FileHandle.nullDevice
        process.standardError = stderr ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits for `process` to end, killing it after `seconds` so that a process that ignores a
    /// signal fails the test instead of hanging it; false when it had to be killed.
    @discardableResult
    public static func waitForExit(_ process: Process, killingAfter seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        let ended = !process.isRunning
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return ended
    }

    /// Reads a started process's stdout and stderr pipes to their end and waits for it, killing it
    /// after `seconds` so that a process that ignores a signal fails the test instead of hanging it.
    public static func collect(_ process: Process, stdout: Pipe, stderr: Pipe, killingAfter seconds: TimeInterval)
        -> Output
    {
        let killed = LockedData()
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning {
                killed.set(Data([1]))
                kill(process.processIdentifier, SIGKILL)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        let output = LockedData()
        let errors = LockedData()
        let readers = DispatchGroup()
        for (pipe, sink) in [(stdout, output), (stderr, errors)] {
            readers.enter()
            DispatchQueue.global().async {
                sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
                readers.leave()
            }
        }
        process.waitUntilExit()
        watchdog.cancel()
        let wasKilled = !killed.get().isEmpty
        // A killed process's children may still hold the pipes: then its output is what was read.
        _ = readers.wait(timeout: wasKilled ? .now() + 5 : .distantFuture)
        return Output(
            status: process.terminationStatus, stdout: String(decoding: output.get(), as: UTF8.self),
            stderr: String(decoding: errors.get(), as: UTF8.self), wasKilled: wasKilled)
    }

    public struct TimedOut: Error, CustomStringConvertible {
        public var arguments: [String]
        public var description: String { "simrun \(arguments.joined(separator: " ")) did not finish in time" }
    }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) {
        lock.lock()
        data = value
        lock.unlock()
    }
    func get() -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}

extension SimrunProcess {
    /// Waits until `process` handles SIGINT and SIGTERM itself (its /proc status lists both as
    /// caught), or has ended; true when that could be seen (Linux), false elsewhere, where the caller
    /// waits its own way.
    @discardableResult
    public static func waitUntilHandlingSignals(_ process: Process, poll microseconds: UInt32 = 500) -> Bool {
        #if os(Linux)
            let wanted: UInt64 = (1 << UInt64(SIGINT - 1)) | (1 << UInt64(SIGTERM - 1))
            while process.isRunning {
                let status =
                    (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
                let caught = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
                    .flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) }
                if let caught, caught & wanted == wanted { return true }
                usleep(microseconds)
            }
            return true
        #else
            return false
        #endif
    }
}

