import Dispatch
import SimCapture
import SimCore
import Synchronization

/// The Grand Central Dispatch variants of the capture probe (issue #31): each submits work the way app
/// code does and checks that it ran inside the run, on the lane its queue maps to, in the order
/// libdispatch guarantees, at the virtual time asked for. A construct the run does not hold fails.
extension CaptureProbe {
    /// The GCD rows of the matrix: variant, summary, and whether each route captures it (all routes
    /// alike: GCD capture does not depend on how Swift concurrency is captured; Linux only for now).
    static let dispatchConstructs: [Construct] = {
        let active = DispatchCapturing.isActive
        return [
            ("dispatch-main", "DispatchQueue.main.async", active, active, active, false),
            ("dispatch-global-queue", "DispatchQueue.global().async", active, active, active, false),
            ("dispatch-serial", "a serial DispatchQueue's async blocks, in FIFO order", active, active, active, false),
            (
                "dispatch-barrier", "a concurrent queue's async blocks and a barrier between them", active, active,
                active, false
            ),
            ("dispatch-after", "asyncAfter(deadline: .now() + 2 s) on main", active, active, active, false),
            ("dispatch-group", "DispatchGroup: queue.async(group:), enter/leave, notify, wait", active, active, active, false),
            ("dispatch-work-item", "DispatchWorkItem: perform, cancel, notify, wait", active, active, active, false),
            (
                "dispatch-semaphore", "DispatchSemaphore: wait for another block's signal; wait(timeout:)", active,
                active, active, false
            ),
            ("dispatch-sync", "DispatchQueue.sync on a serial queue with async blocks ahead", active, active, active, false),
            ("dispatch-concurrent-perform", "DispatchQueue.concurrentPerform", active, active, active, false),
            (
                "dispatch-source-timer", "a DispatchSource timer: once at 10 ms, then every 5 ms until cancelled",
                active, active, active, false
            ),
            ("dispatch-source-data", "a DispatchSource for user data (not simulated: an escape)", false, false, false, false),
        ]
    }()

    static func dispatchProbe(_ variant: String, _ sim: SimulationRef, _ log: ProbeLog) async {
        switch variant {
        case "dispatch-main":
            await onQueue(.main) { log.expect(sim, lanePrefix: "main") }
        case "dispatch-global-queue":
            await onQueue(.global()) { log.expect(sim, lanePrefix: "global:") }
        case "dispatch-serial":
            let queue = DispatchQueue(label: "probe.serial")
            let order = OrderLog()
            for index in 0..<3 { queue.async { order.append(index) } }
            await onQueue(queue) { log.expect(sim, lanePrefix: "dispatch:probe.serial") }
            if order.values != [0, 1, 2] { log.note("a serial queue ran its blocks as \(order.values)") }
        case "dispatch-barrier":
            let queue = DispatchQueue(label: "probe.concurrent", attributes: .concurrent)
            let order = OrderLog()
            queue.async { order.append(1) }
            queue.async { order.append(2) }
            queue.async(flags: .barrier) { order.append(10) }
            queue.async { order.append(3) }
            await onQueue(queue, flags: .barrier) { log.expect(sim, lanePrefix: "dispatch:probe.concurrent[") }
            let values = order.values
            if values.count != 4 || Set(values.prefix(2)) != [1, 2] || values[2] != 10 || values[3] != 3 {
                log.note("a barrier did not separate the blocks before and after it: \(values)")
            }
        case "dispatch-after":
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.asyncAfter(deadline: .now() + .seconds(2)) {
                    log.expect(sim, lanePrefix: "main", at: .seconds(2))
                    continuation.resume()
                }
            }
        case "dispatch-group":
            let group = DispatchGroup()
            let order = OrderLog()
            DispatchQueue.global().async(group: group) { order.append(1) }
            group.enter()
            DispatchQueue.main.async {
                order.append(2)
                group.leave()
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                group.notify(queue: .main) {
                    log.expect(sim, lanePrefix: "main")
                    if order.values.count != 2 { log.note("notify ran before the group was empty: \(order.values)") }
                    continuation.resume()
                }
            }
            await onQueue(.global()) {
                let again = DispatchGroup()
                DispatchQueue(label: "probe.group").async(group: again) { order.append(3) }
                if again.wait(timeout: .now() + .seconds(1)) != .success { log.note("group.wait timed out") }
                log.expect(sim, lanePrefix: "global:")
            }
            if order.values.last != 3 { log.note("group.wait returned before the group was empty") }
        case "dispatch-work-item":
            let order = OrderLog()
            let cancelled = DispatchWorkItem { order.append(99) }
            let item = DispatchWorkItem { order.append(1) }
            DispatchQueue.global().async(execute: cancelled)
            cancelled.cancel()
            DispatchQueue.global().async(execute: item)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                item.notify(queue: .main) {
                    log.expect(sim, lanePrefix: "main")
                    continuation.resume()
                }
            }
            let waited = UncheckedBox(DispatchWorkItem { order.append(2) })
            DispatchQueue(label: "probe.item").async(execute: waited.value)
            await onQueue(.global()) {
                waited.value.wait()
                DispatchWorkItem { order.append(3) }.perform()
            }
            if order.values != [1, 2, 3] { log.note("work items ran as \(order.values) (99: the cancelled one)") }
        case "dispatch-semaphore":
            let semaphore = DispatchSemaphore(value: 0)
            let order = OrderLog()
            DispatchQueue(label: "probe.signaller").async {
                order.append(1)
                semaphore.signal()
            }
            await onQueue(.global()) {
                semaphore.wait()
                order.append(2)
                let never = DispatchSemaphore(value: 0)
                if never.wait(timeout: .now() + .seconds(3)) != .timedOut {
                    log.note("wait(timeout:) did not time out")
                }
                log.expect(sim, lanePrefix: "global:", at: .seconds(3))
            }
            if order.values != [1, 2] { log.note("the semaphore's waiter ran as \(order.values)") }
        case "dispatch-sync":
            let queue = DispatchQueue(label: "probe.sync")
            let order = OrderLog()
            for index in 0..<2 { queue.async { order.append(index) } }
            await onQueue(.global()) {
                queue.sync { order.append(9) }
                log.expect(sim, lanePrefix: "global:")
            }
            if order.values != [0, 1, 9] { log.note("sync ran ahead of the queue's blocks: \(order.values)") }
        case "dispatch-concurrent-perform":
            let order = OrderLog()
            let before = sim.simulation.scheduleDigest
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                order.append(index)
                log.expect(sim, lanePrefix: "task")
            }
            if order.values.sorted() != [0, 1, 2, 3] { log.note("concurrentPerform ran \(order.values)") }
            // Captured, its iterations run in an order the run picks; run inline by libdispatch itself,
            // in whatever order its threads took, no decision was made.
            if sim.simulation.scheduleDigest == before { log.note("no decision picked concurrentPerform's order") }
        case "dispatch-source-timer":
            let fired = OrderLog()
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + .milliseconds(10), repeating: .milliseconds(5))
            timer.setEventHandler {
                log.expect(sim, lanePrefix: "main")
                fired.append(Int(sim.simulation.now / 1_000_000))
                if fired.values.count == 3 { timer.cancel() }
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                timer.setCancelHandler { continuation.resume() }
                timer.resume()
            }
            log.expect(sim, lanePrefix: "task", at: .milliseconds(20))
            if fired.values != [10, 15, 20] { log.note("the timer fired at \(fired.values) ms") }
        case "dispatch-source-data":
            let source = DispatchSource.makeUserDataAddSource(queue: .main)
            let merged = Atomic<Int>(0)
            source.setEventHandler { merged.add(1, ordering: .relaxed) }
            source.activate()
            source.add(data: 1)
            try? await Task.sleep(for: .milliseconds(20))
            source.cancel()
            log.expect(sim, lanePrefix: "task", at: .milliseconds(20))
            if merged.load(ordering: .relaxed) != 1 { log.note("the source's handler did not run inside the run") }
        default:
            log.note("unknown probe \(variant)")
        }
    }

    /// Runs `body` as a block on `queue` and waits for it (the body's task resumes from the block).
    static func onQueue(
        _ queue: DispatchQueue, flags: DispatchWorkItemFlags = [], _ body: @escaping @Sendable () -> Void
    )
        async
    {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async(flags: flags) {
                body()
                continuation.resume()
            }
        }
    }
}

/// Values appended by blocks, in the order they ran.
final class OrderLog: Sendable {
    private let storage = Mutex<[Int]>([])
    func append(_ value: Int) { storage.withLock { $0.append(value) } }
    var values: [Int] { storage.withLock { $0 } }
}

/// A value handed to a block that runs on the run's one thread (a `DispatchWorkItem` is not `Sendable`).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
