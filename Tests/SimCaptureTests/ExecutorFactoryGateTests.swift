import SimCapture
import SimCore
import Synchronization
import Testing

/// The load-time decision: install simrun's executors only when first, on every kind of host.
@Suite struct ExecutorFactoryGateTests {
    typealias Facts = ExecutorFactoryGate.Facts

    /// A process being loaded: main thread, no task, no other thread.
    static let first = Facts(setting: nil, insideTask: false, onMainThread: true, threadCount: 1)

    @Test func aProcessLoadingOnItsOwnInstalls() {
        #expect(ExecutorFactoryGate.decide(Self.first) == .install)
        for setting in ["", "on", "1", "ON", "true"] {
            var facts = Self.first
            facts.setting = setting
            #expect(ExecutorFactoryGate.decide(facts) == .install, "\(setting)")
        }
    }

    @Test func theEnvironmentVariableOptsOut() {
        for setting in ["off", "0", "no", "false", "OFF"] {
            var facts = Self.first
            facts.setting = setting
            #expect(ExecutorFactoryGate.decide(facts) == .optedOut("SIMRUN_EXECUTOR_FACTORY=\(setting)"))
        }
        var unclear = Self.first
        unclear.setting = "maybe"
        #expect(
            ExecutorFactoryGate.decide(unclear)
                == .optedOut("SIMRUN_EXECUTOR_FACTORY=maybe (not on or off: taken as off)"))
    }

    /// Hosts that load test code after starting their executors (macOS's test hosts open the bundle
    /// with `dlopen`): each is refused with a reason that says what was seen, never installed late.
    @Test(arguments: [
        (Facts(setting: nil, insideTask: false, onMainThread: true, threadCount: 6), "6 threads were already running"),
        (Facts(setting: nil, insideTask: false, onMainThread: false, threadCount: 1), "other than the main thread"),
        (Facts(setting: nil, insideTask: true, onMainThread: true, threadCount: 1), "inside a task"),
        (Facts(setting: nil, insideTask: false, onMainThread: nil, threadCount: nil), "cannot tell"),
        (Facts(setting: nil, insideTask: false, onMainThread: true, threadCount: nil), "cannot tell"),
    ])
    func aHostThatStartedItsExecutorsIsRefused(_ facts: Facts, _ reason: String) {
        guard case .notFirst(let said) = ExecutorFactoryGate.decide(facts) else {
            Issue.record("\(facts) must be refused, got \(ExecutorFactoryGate.decide(facts))")
            return
        }
        #expect(said.contains(reason), "\(said)")
    }

    /// The real entry point, called as a late loader would call it: from inside a task, with the
    /// runner's threads running. It refuses at once, leaves the route and the load-time record as they
    /// were, and never hangs (a watchdog fails the test instead of waiting).
    @Test func theLoadTimeEntryCalledLateRefusesAndReturns() async throws {
        let routeBefore = ExecutorCapture.ensureRoute()
        let recorded = ExecutorFactoryGate.atLoad
        let facts = Facts.current
        #expect(facts.insideTask)
        #expect((facts.threadCount ?? 0) > 1, "a test runner has threads running: \(facts)")
        let decision = try await withWatchdog(seconds: 10) { ExecutorFactoryGate.installAtLoad() }
        guard case .notFirst = decision else {
            Issue.record("a late install must be refused, got \(decision)")
            return
        }
        #expect(ExecutorCapture.route == routeBefore)
        #expect(ExecutorFactoryGate.atLoad == recorded)
        // The same from a plain thread outside any task (a bundle opened by a synchronous host).
        let fromThread = try await withWatchdog(seconds: 10) {
            await onPlainThread { ExecutorFactoryGate.installAtLoad() }
        }
        #expect(fromThread != .install, "\(fromThread)")
        #expect(ExecutorCapture.route == routeBefore)
    }

    @Test func theFallbackIsSaidOnceWithItsReason() {
        let line = ExecutorFactoryGate.fallbackMessage(reason: "6 threads were already running", route: .enqueueHook)
        #expect(line.hasPrefix("simrun: the executor factory is not installed in this process: 6 threads"))
        #expect(line.contains("enqueue-hook route"))
        #expect(line.contains("SimRun.main"))
    }
}

struct TimedOut: Error {}

/// `body`'s value, or `TimedOut` when it takes longer than `seconds` (the body is left running).
func withWatchdog<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimedOut() }
        return value
    }
}

/// Runs `body` on a new thread (no task) and returns its value.
func onPlainThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let box = Unmanaged.passRetained(ThreadCall { continuation.resume(returning: body()) }).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        _ = pthread_create(
            &thread, nil,
            { raw in
                #if canImport(Darwin)
                    Unmanaged<ThreadCall>.fromOpaque(raw).takeRetainedValue().run()
                #else
                    Unmanaged<ThreadCall>.fromOpaque(raw!).takeRetainedValue().run()
                #endif
                return nil
            }, box)
        #if canImport(Darwin)
            pthread_detach(thread!)
        #else
            pthread_detach(thread)
        #endif
    }
}

private final class ThreadCall: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
