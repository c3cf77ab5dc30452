import Foundation
import SimCapture
import SimCore

/// A subject that yields to its subscribers' `AsyncStream`s while holding its lock deadlocks against
/// a subscriber's cancellation: the shape of sideeffect-io/AsyncExtensions#52 (open), reported again as
/// unsignedapps/Vexil#153 and as supabase-swift#1154, where iOS apps were killed by the watchdog.
///
/// - Sending: the subject's lock, then — yielding to a subscriber that waits — that subscriber task's
///   status lock in the concurrency runtime (a resumption takes the resumed task's lock).
/// - Cancelling the subscriber: `Task.cancel()` holds the task's status lock while the stream's
///   cancellation handler runs its `onTermination`, which unsubscribes: the subject's lock.
///
/// `buggy` yields under the lock (AsyncExtensions, Vexil before PR #154, supabase-swift 2.43.0): with
/// lock preemption a send paused at its yield while a cancel holds the status lock is a deadlock,
/// named with both locks and who holds each. `buggy-reorder` is supabase-swift's first fix (PR #1155):
/// snapshot the subscribers under the lock, yield after releasing it — no deadlock, but two sends can
/// now deliver out of order (the `delivered-in-order` oracle). `fixed` is its second (PR #1156): a FIFO
/// turnstile of tickets taken under the lock, so deliveries leave in the order their sends took the
/// lock. Without `--preempt` every job runs to its end and every variant passes. No `Thread.sleep`
/// widens the window: the schedule does.
public enum SubjectCancelDeadlock {
    /// The scenario: `buggy`, `buggy-reorder`, `fixed`.
    public static let scenario: Scenario = {
        var scenario = Scenario.async(
            name: "subject-cancel-deadlock",
            summary:
                "a subject yields under its lock while a cancelled subscriber's handler takes it: lock-order inversion"
                + " with the runtime's task status lock (sideeffect-io/AsyncExtensions #52, unsignedapps/Vexil #153,"
                + " supabase-swift #1154) — needs --preempt",
            variants: [
                .init("buggy", "send yields to subscribers while holding the subject's lock"),
                .init("buggy-reorder", "PR #1155: yields after releasing the lock; two sends can deliver out of order"),
                .init("fixed", "PR #1156: yields after releasing the lock, in ticket order (a FIFO turnstile)"),
            ],
            limits: RunLimits(maxSteps: 4_000),
            concurrency: .eitherRoute
        ) { simulation, variant in
            let order = simulation.deliveryOrder("delivered-in-order", of: Int.self)
            let subject = ValueSubject(
                delivery: variant == "buggy" ? .underLock : variant == "buggy-reorder" ? .afterUnlock : .turnstile,
                order: order)
            let stream = subject.subscribe()
            let received = ReceivedCount()
            simulation.sometimes("a value reached the subscriber before its cancellation") { received.count > 0 }
            simulation.sometimes("both values reached the subscriber") { received.count == 2 }
            let subscriber = Task {
                for await value in stream {
                    order.delivered(value, to: "the subscriber")
                    received.count += 1
                }
            }
            let senders = [1, 2].map { value in Task { subject.send(value) } }
            let canceller = Task { subscriber.cancel() }
            for sender in senders { await sender.value }
            await canceller.value
            await subscriber.value
            simulation.check(
                "unsubscribed", subject.subscriberCount == 0, "the cancelled subscriber is still subscribed")
        }
        scenario.bugNeeds = .preemptLocks
        return scenario
    }()
}

/// Values the subscriber received (read between jobs).
final class ReceivedCount: @unchecked Sendable {
    var count = 0
}

/// A current-value-less subject (a `PassthroughSubject`): subscribers are `AsyncStream` continuations
/// kept under an `NSLock`, removed by the stream's `onTermination` when a subscriber goes away.
final class ValueSubject: @unchecked Sendable {
    enum Delivery {
        /// Yield while holding the lock (the bug).
        case underLock
        /// Snapshot under the lock, yield after it.
        case afterUnlock
        /// Snapshot and take a ticket under the lock; yield after it when the ticket's turn comes.
        case turnstile
    }

    private let lock = NSLock()
    private var subscribers: [Int: AsyncStream<Int>.Continuation] = [:]
    private var nextID = 0
    private let delivery: Delivery
    private let order: DeliveryOrder<Int>
    // The turnstile: tickets handed out under `lock`, served in order.
    private let turnstile = NSCondition()
    private var nextTicket = 0
    private var serving = 0

    init(delivery: Delivery, order: DeliveryOrder<Int>) {
        self.delivery = delivery
        self.order = order
    }

    var subscriberCount: Int { lock.withLock { subscribers.count } }

    func subscribe() -> AsyncStream<Int> {
        AsyncStream { continuation in
            let id = lock.withLock {
                nextID += 1
                subscribers[nextID] = continuation
                return nextID
            }
            continuation.onTermination = { [self] _ in unsubscribe(id) }
        }
    }

    private func unsubscribe(_ id: Int) {
        lock.lock()
        subscribers[id] = nil
        lock.unlock()
    }

    func send(_ value: Int) {
        lock.lock()
        order.produced(value)
        // Subscribers in subscription order: a dictionary's own order is no order.
        let targets = subscribers.keys.sorted().compactMap { subscribers[$0] }
        switch delivery {
        case .underLock:
            for target in targets { target.yield(value) }
            lock.unlock()
        case .afterUnlock:
            lock.unlock()
            for target in targets { target.yield(value) }
        case .turnstile:
            let ticket = nextTicket
            nextTicket += 1
            lock.unlock()
            turnstile.lock()
            while serving != ticket { turnstile.wait() }
            turnstile.unlock()
            for target in targets { target.yield(value) }
            turnstile.lock()
            serving += 1
            turnstile.broadcast()
            turnstile.unlock()
        }
    }
}
