import Dispatch
import Foundation
import SimCapture
import SimCore
import Testing

/// Issue #40, item 8: every order simrun produces for a queue is one the real queue could produce. Each
/// construct runs on the one-thread path and under carriers (`--preempt`: its operations' bodies
/// interleave at lock points) over many seeds, and what the schedules did is checked against the
/// queue's contract — its width, its dependencies, its barriers, its cancellation — never against one
/// expected order. (This check found that a barrier flag carried by the block itself,
/// `async(group:flags: .barrier)`, was ignored.)
@Suite("Queue fidelity", .serialized)
struct QueueFidelityTests {
    /// What the operations of one run did: how many ran at once at most, and in which order they
    /// started and finished. Operations take `lock` around each step, so under carriers the step is
    /// a point where another operation may run.
    final class Ledger: @unchecked Sendable {
        let lock = NSLock()
        var running = 0
        var mostAtOnce = 0
        var started: [Int] = []
        var finished: [Int] = []
        var barrierOverlaps = 0
        var barrierRunning = false

        func enter(_ id: Int) {
            lock.lock()
            running += 1
            mostAtOnce = max(mostAtOnce, running)
            started.append(id)
            if barrierRunning { barrierOverlaps += 1 }
            lock.unlock()
        }

        func leave(_ id: Int) {
            lock.lock()
            running -= 1
            finished.append(id)
            lock.unlock()
        }

        func work(_ id: Int) {
            enter(id)
            lock.lock()  // a point inside the operation: others may run now
            lock.unlock()
            leave(id)
        }
    }

    static let seeds: Range<UInt64> = 0..<120

    /// Runs `body` under carriers for every seed, each with a fresh ledger, and checks it.
    static func everySeed(
        _ name: String, _ body: @escaping @Sendable (Ledger) async -> Void, check: (Ledger, UInt64) -> Void
    ) {
        for seed in seeds {
            for onCarriers in [false, true] {
                let ledger = Ledger()
                let scenario = Scenario.async(name: name, summary: "", variants: [.init("default", "")]) { _, _ in
                    await body(ledger)
                }
                let runnable = onCarriers ? scenario.running(on: .preemptLocks) : scenario
                let result = runnable.run(variant: "default", seed: seed, strategy: RandomStrategy())
                #expect(result.verdict == .pass, "\(name) seed \(seed) carriers \(onCarriers): \(result.verdict)")
                check(ledger, seed)
            }
        }
    }

    /// Waits until `queue` has run everything added so far.
    static func drain(_ queue: OperationQueue) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let last = BlockOperation { done.resume() }
            for operation in queue.operations { last.addDependency(operation) }
            queue.addOperation(last)
        }
    }

    @Test(arguments: [1, 2, 3])
    func anOperationQueueNeverRunsMoreThanItsWidth(_ width: Int) throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        var widest = 0
        Self.everySeed("operation-queue-width") { ledger in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = width
            for id in 0..<5 { queue.addOperation { ledger.work(id) } }
            await Self.drain(queue)
        } check: { ledger, seed in
            #expect(ledger.mostAtOnce <= width, "width \(width) seed \(seed): \(ledger.mostAtOnce) at once")
            #expect(ledger.finished.sorted() == Array(0..<5), "seed \(seed): \(ledger.finished)")
            if width == 1 { #expect(ledger.started == Array(0..<5), "a serial queue starts in order: \(ledger.started)") }
            widest = max(widest, ledger.mostAtOnce)
        }
        // The exploration is not vacuous: a queue wider than one did run operations side by side.
        if width > 1 { #expect(widest > 1, "width \(width): no schedule ran two operations at once") }
    }

    @Test func anOperationNeverStartsBeforeItsDependenciesFinish() throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        Self.everySeed("operation-dependencies") { ledger in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 3
            let first = BlockOperation { ledger.work(0) }
            let second = BlockOperation { ledger.work(1) }
            let third = BlockOperation { ledger.work(2) }
            third.addDependency(first)
            third.addDependency(second)
            for operation in [third, second, first] { queue.addOperation(operation) }
            await Self.drain(queue)
        } check: { ledger, seed in
            let thirdStart = ledger.started.firstIndex(of: 2) ?? -1
            let finishedBefore = Set(ledger.finished.prefix { $0 != 2 })
            #expect(thirdStart >= 0 && finishedBefore.isSuperset(of: [0, 1]), "seed \(seed): \(ledger.started) / \(ledger.finished)")
        }
    }

    @Test func aCancelledOperationThatHadNotStartedNeverRuns() throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        Self.everySeed("operation-cancel") { ledger in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let operations = (0..<4).map { id in BlockOperation { ledger.work(id) } }
            for operation in operations { queue.addOperation(operation) }
            queue.cancelAllOperations()
            await Self.drain(queue)
        } check: { ledger, seed in
            // Whatever started before the cancel ran to its end; nothing else ran.
            #expect(ledger.started == ledger.finished.sorted(), "seed \(seed): \(ledger.started) / \(ledger.finished)")
            #expect(ledger.started == Array(0..<ledger.started.count), "a serial queue starts in order: \(ledger.started)")
        }
    }

    @Test func aSerialDispatchQueueRunsOneBlockAtATimeInOrder() throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        Self.everySeed("dispatch-serial") { ledger in
            let queue = DispatchQueue(label: "fidelity.serial")
            let group = DispatchGroup()
            for id in 0..<4 { queue.async(group: group) { ledger.work(id) } }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                group.notify(queue: queue) { done.resume() }
            }
        } check: { ledger, seed in
            #expect(ledger.mostAtOnce == 1, "seed \(seed): \(ledger.mostAtOnce) at once")
            #expect(ledger.started == Array(0..<4), "seed \(seed): \(ledger.started)")
        }
    }

    @Test func aBarrierRunsAloneOnAConcurrentQueue() throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        var sideBySide = false
        Self.everySeed("dispatch-barrier") { ledger in
            let queue = DispatchQueue(label: "fidelity.concurrent", attributes: .concurrent)
            let group = DispatchGroup()
            for id in 0..<3 { queue.async(group: group) { ledger.work(id) } }
            queue.async(group: group, flags: .barrier) {
                ledger.lock.lock()
                let alone = ledger.running == 0
                ledger.barrierRunning = true
                ledger.lock.unlock()
                if !alone { ledger.barrierOverlaps += 1 }
                ledger.lock.lock()
                ledger.barrierRunning = false
                ledger.lock.unlock()
            }
            for id in 3..<5 { queue.async(group: group) { ledger.work(id) } }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                group.notify(queue: .global()) { done.resume() }
            }
        } check: { ledger, seed in
            #expect(ledger.barrierOverlaps == 0, "seed \(seed): the barrier ran beside another block")
            #expect(Set(ledger.started.prefix(3)) == [0, 1, 2], "seed \(seed): a block after the barrier ran first")
            sideBySide = sideBySide || ledger.mostAtOnce > 1
        }
        #expect(sideBySide, "no schedule ran two blocks of the concurrent queue side by side")
    }
}
