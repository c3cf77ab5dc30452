import Foundation
import SimTestSupport
import Testing

/// A real host that started a thread before simrun was loaded: this test binary run again with a
/// preloaded library whose constructor starts one (as a host that opens test code after starting
/// its executors would have). simrun's gate must refuse to install, say so once, keep the hook
/// route, refuse the `@MainActor` scenario with the reason — and the child must end, not hang.
@Suite struct LateHostTests {
    @Test(.enabled(if: TestPlatform.isLinux, "LD_PRELOAD and simrun's executor factory gate are Linux's only"))
    func aHostWithThreadsAlreadyRunningGetsTheHookRouteAndOneClearLine() throws {
        let directory = try makeTemporaryDirectory("late-host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("early.c")
        try """
        #include <pthread.h>
        #include <unistd.h>
        static void *idle(void *arg) { (void)arg; for (;;) pause(); return 0; }
        __attribute__((constructor)) static void start(void) {
            pthread_t thread;
            pthread_create(&thread, 0, idle, 0);
            pthread_detach(thread);
        }
        """.write(to: source, atomically: true, encoding: .utf8)
        let library = directory.appendingPathComponent("libearly.so").path
        // clang comes with the Swift toolchain; a system cc does as well.
        var compile = try run(
            "/usr/bin/env", ["clang", "-shared", "-fPIC", "-o", library, source.path, "-lpthread"], environment: [:]
        )
        if compile.status != 0 {
            compile = try run(
                "/usr/bin/env", ["cc", "-shared", "-fPIC", "-o", library, source.path, "-lpthread"],
                environment: [:])
        }
        try #require(compile.status == 0, "a C compiler must build the host library: \(compile.output)")

        let child = try run(
            CommandLine.arguments[0],
            ["--testing-library", "swift-testing", "--filter", "aMainActorScenarioRunsInATestProcess"],
            environment: ["LD_PRELOAD": library], removing: ["SIMRUN_EXECUTOR_FACTORY"])
        let line = "simrun: the executor factory is not installed in this process: 2 threads were already running"
        #expect(child.output.components(separatedBy: line).count == 2, "said exactly once: \(child.output)")
        #expect(child.output.contains("The enqueue-hook route is used"), "\(child.output)")
        #expect(child.output.contains("async-capture"), "the @MainActor scenario is refused: \(child.output)")
        #expect(child.status != 0, "its expectation of the factory fails in that host: \(child.output)")
    }

    /// Runs a program to the end (killed after 120 s, so a hang fails the test instead of stalling it).
    func run(_ program: String, _ arguments: [String], environment: [String: String], removing: [String] = [])
        throws -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        for name in removing { merged[name] = nil }
        process.environment = merged
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let collected = LockedBytes()
        let reader = Thread { collected.set(pipe.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("\(program) did not finish in 120 s: it hung")
        }
        process.waitUntilExit()
        while !collected.isSet { usleep(1_000) }
        return (process.terminationStatus, String(decoding: collected.get(), as: UTF8.self))
    }
}

private final class LockedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ value: Data) { lock.withLock { data = value } }
    var isSet: Bool { lock.withLock { data != nil } }
    func get() -> Data { lock.withLock { data ?? Data() } }
}
