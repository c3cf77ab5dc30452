import Dispatch
import Foundation
import SimCapture
import SimCore
import Synchronization

/// What lock preemption sees, one construct per variant (the capture matrix of the
/// CarriersAndPreemption article; `CarrierMatrixTests` checks it). Two tasks use the construct; with
/// `--preempt` a variant passes when the construct's lock operations were scheduling points, and fails
/// (`preempted`) when they were invisible. `main-thread` checks instead that `@MainActor` code runs on
/// the process's main thread, and `Task {}` code off it, wherever the run is driven from the main
/// thread on carriers.
public enum CarrierProbe {
    /// Each construct, and whether its lock operations are scheduling points under `--preempt` on
    /// this platform.
    public static let constructs: [(variant: String, summary: String, preempts: Bool)] = [
        ("nslock", "NSLock lock/unlock in two tasks", Carriers.locksInterposed),
        ("nsrecursivelock", "NSRecursiveLock taken twice, in two tasks", Carriers.locksInterposed),
        ("nscondition", "NSCondition wait in one task, signal in another", Carriers.locksInterposed),
        ("pthread-mutex", "a pthread_mutex_t locked directly, in two tasks", Carriers.locksInterposed),
        (
            "cancellation-handler", "withTaskCancellationHandler and Task.cancel() (the runtime's own locks)",
            Carriers.locksInterposed
        ),
        (
            "synchronization-mutex", "Synchronization.Mutex withLock in two tasks (its thread-id request, mutex.c)",
            Carriers.locksInterposed
        ),
        // Simulated by the GCD capture where it is active: `sync` is a wait on the queue's lane, a
        // scheduling point of its own; elsewhere libdispatch's atomics and futexes hide it.
        ("dispatch-sync", "DispatchQueue.sync on a serial queue in two tasks", DispatchCapturing.isActive),
        ("main-thread", "@MainActor code on the main thread, Task {} code off it (on carriers)", true),
    ]

    /// The scenario, one variant per construct.
    public static let scenario = Scenario.async(
        name: "carrier-probe",
        summary: "one lock construct per variant: with --preempt passes when its locks are scheduling points",
        variants: constructs.map { .init($0.variant, $0.summary) },
        limits: RunLimits(maxSteps: 1_000)
    ) { simulation, variant in
        if variant == "main-thread" {
            await probeMainThread(simulation)
            return
        }
        let points = await probe(variant)
        simulation.emit("probe.lock-points", variant, ["count": .int(points)])
        simulation.check(
            "preempted", points > 0,
            "\(variant): no lock operation was a scheduling point (\(simulation.carrierMode) mode: "
                + (simulation.carrierMode == .preemptLocks ? "invisible to preemption)" : "run it with --preempt)"))
    }.inGroup(BuiltinScenarios.fixtures)

    /// Runs the construct; returns how many of *its own* lock operations were scheduling points (counted
    /// around each synchronous use, so the runtime's locks of `Task {}` and `await` do not count).
    static func probe(_ variant: String) async -> Int {
        let seen = Counter()
        func counted(_ body: () -> Void) {
            let before = Carriers.lockPointsInThisRun
            body()
            seen.value += Carriers.lockPointsInThisRun - before
        }
        switch variant {
        case "nslock":
            let lock = NSLock()
            let box = Counter()
            await twoTasks {
                counted {
                    lock.lock()
                    box.value += 1
                    lock.unlock()
                }
            }
        case "nsrecursivelock":
            let lock = NSRecursiveLock()
            let box = Counter()
            await twoTasks {
                counted {
                    lock.lock()
                    lock.lock()
                    box.value += 1
                    lock.unlock()
                    lock.unlock()
                }
            }
        case "nscondition":
            // On one thread the waiter would block the run's only thread for ever: only on carriers.
            guard Carriers.currentSimulation != nil else { return 0 }
            let condition = NSCondition()
            let box = Counter()
            let waiter = Task { counted { waitForValue(condition, box) } }
            let signaller = Task { counted { signalValue(condition, box) } }
            await waiter.value
            await signaller.value
        case "pthread-mutex":
            let mutex = PthreadMutex()
            let box = Counter()
            await twoTasks { counted { mutex.withLock { box.value += 1 } } }
        case "cancellation-handler":
            let task = Task {
                await withTaskCancellationHandler {
                    await Task.yield()
                } onCancel: {
                }
            }
            counted { task.cancel() }
            await task.value
        case "synchronization-mutex":
            let mutex = Mutex<Int>(0)
            await twoTasks { counted { mutex.withLock { $0 += 1 } } }
        case "dispatch-sync":
            let queue = DispatchQueue(label: "carrier-probe.serial")
            let box = Counter()
            await twoTasks { counted { queue.sync { box.value += 1 } } }
        default:
            break
        }
        return seen.value
    }

    private static func twoTasks(_ body: @escaping () -> Void) async {
        nonisolated(unsafe) let body = body
        let first = Task { body() }
        let second = Task { body() }
        await first.value
        await second.value
    }

    static func probeMainThread(_ simulation: Simulation) async {
        let onCarriers = Carriers.currentSimulation != nil
        let expectMain = Carriers.mainLaneOnMainThread
        let main = await MainActor.run { () -> (Bool, Bool) in
            (Thread.isMainThread, MainActor.assumeIsolated { true })
        }
        let task = await Task { Thread.isMainThread }.value
        simulation.emit(
            "probe.threads", "main-thread",
            ["main-actor-on-main": .bool(main.0), "task-on-main": .bool(task), "driver-is-main": .bool(expectMain)])
        guard onCarriers else {
            simulation.check("main-thread", false, "not on carriers: run it with --preempt")
            return
        }
        simulation.check(
            "main-thread", main.0 == expectMain && main.1 && !task,
            "@MainActor code on the main thread: \(main.0), Task {} code on the main thread: \(task) "
                + "(the run is driven from the main thread: \(expectMain))")
    }
}

private func waitForValue(_ condition: NSCondition, _ box: Counter) {
    condition.lock()
    while box.value == 0 { condition.wait() }
    condition.unlock()
}

private func signalValue(_ condition: NSCondition, _ box: Counter) {
    condition.lock()
    box.value = 1
    condition.signal()
    condition.unlock()
}

private final class Counter: @unchecked Sendable {
    var value = 0
}

/// A bare `pthread_mutex_t`, as wrappers in app code (and `ManagedCriticalState`) use one.
private final class PthreadMutex: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    func withLock(_ body: () -> Void) {
        pthread_mutex_lock(mutex)
        body()
        pthread_mutex_unlock(mutex)
    }
}
