import Foundation
import SimCapture
import SimCore

/// A cancellation lost between two `NSLock` acquisitions (the shape of swift-async-algorithms PR #80:
/// a `cancel()` that lands between an iterator's check and its storing the continuation). A `Task {}`
/// waits for the next value of a `Feed`; the body cancels the feed and waits for the task.
///
/// `buggy` checks "cancelled?" under the lock, releases it, then takes it again to store its
/// continuation: a `cancel()` that runs in between finds no continuation to resume, and the stored
/// one is never resumed (`cancel-reaches-next` fails once the run is quiet). Without `--preempt` a job runs to its end, so
/// the two acquisitions are atomic and every schedule passes; only with lock preemption
/// (`CarrierMode.preemptLocks`) can the body's job run between them. `fixed` checks again under the
/// acquisition that stores the continuation (same lock points, so a buggy trace replays on it).
public enum NSLockLostCancel {
    /// The scenario, `buggy` and `fixed`.
    public static let scenario: Scenario = {
        var scenario = Scenario.async(
            name: "nslock-lost-cancel",
            summary:
                "a cancel() between an iterator's check and its store (two NSLock sections) is lost"
                + " — needs --preempt: without it every schedule passes",
            variants: [
                .init("buggy", "next() checks for cancellation and stores its continuation under two acquisitions"),
                .init("fixed", "next() checks again under the acquisition that stores its continuation"),
            ],
            limits: RunLimits(maxSteps: 2_000),
            concurrency: .eitherRoute
        ) { simulation, variant in
            let feed = Feed(simulation: simulation, splitCheck: variant == "buggy")
            simulation.sometimes("cancel() between next()'s check and its store") { feed.cancelledBetween }
            let consumer = Task { await feed.next() }
            await Task.yield()
            feed.cancel()
            await simulation.settle()
            simulation.check(
                "cancel-reaches-next", !feed.holdsWaiter,
                "next() stored its continuation after cancel() ran: the cancellation was lost and next() never returns")
            feed.resumeLeftover()  // nothing is leaked when the check failed
            let value = await consumer.value
            simulation.check(
                "cancelled-next-returns-nil", value == nil, "next() returned \(value ?? -1) after cancel()")
        }
        scenario.bugNeeds = .preemptLocks
        return scenario
    }()
}

/// The iterator's shared state: a cancelled flag and the waiting continuation, under an `NSLock`.
final class Feed: @unchecked Sendable {
    let simulation: Simulation
    let splitCheck: Bool
    private let lock = NSLock()
    private var cancelled = false
    private var waiter: CheckedContinuation<Int?, Never>?
    /// Where next() was when cancel() ran: 0 not started, 1 checked but not stored, 2 stored.
    private var phase = 0
    private(set) var cancelledBetween = false

    /// A continuation is stored although cancel() has run (read between jobs).
    var holdsWaiter: Bool { cancelled && waiter != nil }

    /// Resumes a continuation the lost cancellation left stored.
    func resumeLeftover() {
        lock.lock()
        let left = waiter
        waiter = nil
        lock.unlock()
        left?.resume(returning: nil)
    }

    init(simulation: Simulation, splitCheck: Bool) {
        self.simulation = simulation
        self.splitCheck = splitCheck
    }

    /// The next value, or nil once cancelled (values never come in this scenario).
    func next() async -> Int? {
        await withCheckedContinuation { continuation in
            // A fast path: already cancelled?
            lock.lock()
            let wasCancelled = cancelled
            phase = 1
            lock.unlock()
            if wasCancelled {
                simulation.emit("feed.next", "cancelled-before")
                continuation.resume(returning: nil)
                return
            }
            lock.lock()
            if !splitCheck && cancelled {
                // The fix: check again where the continuation is stored, under the same acquisition.
                lock.unlock()
                simulation.emit("feed.next", "cancelled-between")
                continuation.resume(returning: nil)
                return
            }
            waiter = continuation
            phase = 2
            lock.unlock()
            simulation.emit("feed.next", "stored")
        }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        if phase == 1 { cancelledBetween = true }
        let waiting = waiter
        waiter = nil
        lock.unlock()
        simulation.emit("feed.cancel", waiting == nil ? "no-waiter" : "resumed")
        waiting?.resume(returning: nil)
    }
}
