import Synchronization
import Testing

@testable import SimCapture
@testable import SimCore

/// What a run sees but does not control (issue #40): the kernel's channel for it, the schedule digest
/// a campaign counts distinct schedules by, and a quiet run with an unfinished body decided without
/// waiting on the wall clock where the run can tell.
@Suite struct UncontrolledTests {
    static let noting = Scenario(name: "noting", summary: "", variants: [.init("v", "")]) { simulation, _ in
        simulation.post(on: "a", "one") {
            simulation.noteUncontrolled(.invisibleLock, "Mutex.withLock", at: "Cart.add(_:)")
            simulation.noteUncontrolled(.invisibleLock, "Mutex.withLock", at: "Cart.add(_:)")
            simulation.noteUncontrolled(.invisibleLock, "Mutex.withLock", at: "Cart.remove(_:)")
            simulation.noteUncontrolled("custom-kind", "something of the caller's own")
        }
    }

    @Test func aRunCarriesEachDistinctObservationOnceWithItsCount() {
        let result = Self.noting.run(variant: "v", seed: 0, strategy: FIFOStrategy())
        #expect(result.verdict == .pass, "noting is not failing: \(result.verdict)")
        #expect(
            result.uncontrolled == [
                Uncontrolled(kind: .invisibleLock, detail: "Mutex.withLock", site: "Cart.add(_:)", count: 2),
                Uncontrolled(kind: .invisibleLock, detail: "Mutex.withLock", site: "Cart.remove(_:)"),
                Uncontrolled(kind: "custom-kind", detail: "something of the caller's own"),
            ])
        #expect(result.uncontrolled[0].description == "invisible-lock: Mutex.withLock (Cart.add(_:))")
    }

    @Test func aRunKeepsABoundedListAndANewKindPastTheBoundStillShows() {
        let scenario = Scenario(name: "many", summary: "", variants: [.init("v", "")]) { simulation, _ in
            simulation.post(on: "a", "one") {
                for site in 0..<100 { simulation.noteUncontrolled(.runLoop, "Timer", at: "site \(site)") }
                simulation.noteUncontrolled(.thread, "Thread.start")
            }
        }
        let result = scenario.run(variant: "v", seed: 0, strategy: FIFOStrategy())
        #expect(result.uncontrolled.count == Simulation.maxUncontrolled)
        #expect(result.uncontrolled.last?.kind == .thread, "a kind first seen past the bound is kept")
        #expect(result.uncontrolled.filter { $0.kind == .runLoop }.reduce(0) { $0 + $1.count } >= 69)
    }

    /// Two ready lanes: the pick is the run's one decision.
    static let twoLanes = Scenario(name: "two", summary: "", variants: [.init("v", "")]) { simulation, _ in
        simulation.post(on: "a", "one") {}
        simulation.post(on: "b", "two") {}
    }

    @Test func theScheduleDigestIsTheDecisionsMade() {
        let fifo = Self.twoLanes.run(variant: "v", seed: 0, strategy: FIFOStrategy())
        let again = Self.twoLanes.run(variant: "v", seed: 9, strategy: FIFOStrategy())
        #expect(fifo.scheduleDigest == again.scheduleDigest, "the same decisions, whatever the seed")
        var digests = Set<UInt64>()
        for seed: UInt64 in 0..<40 {
            let result = Self.twoLanes.run(variant: "v", seed: seed, strategy: RandomStrategy())
            digests.insert(result.scheduleDigest)
            #expect(
                (result.scheduleDigest == fifo.scheduleDigest) == (result.tape == fifo.tape),
                "one digest per schedule (seed \(seed))")
        }
        #expect(digests.count == 2, "two orders, two schedules")
        let alone = Scenario(name: "one", summary: "", variants: [.init("v", "")]) { simulation, _ in
            simulation.post(on: "a", "one") {}
        }
        #expect(
            alone.run(variant: "v", seed: 0, strategy: RandomStrategy()).scheduleDigest == Digest().value,
            "a run with no decision has the empty schedule's digest")
    }

    final class Parked: @unchecked Sendable {
        var continuation: CheckedContinuation<Void, Never>?
    }

    /// The body waits on a continuation nobody resumes: a hang, told without waiting for work from
    /// outside (GCD is under the scheduler, the task objects are read, nothing ran outside).
    @Test func aHangIsDecidedWithoutWaitingWhereTheRunCanTell() throws {
        let scenario = Scenario.async(name: "hang", summary: "", variants: [.init("v", "")]) { _, _ in
            let parked = Parked()
            await withCheckedContinuation { parked.continuation = $0 }
        }
        let canTell = DispatchCapturing.isActive && TaskCensus.isReadable
        let waitsBefore = AsyncCapture.outsideWaits.load(ordering: .relaxed)
        let result = scenario.run(variant: "v", seed: 0, strategy: FIFOStrategy())
        #expect(result.verdict.oracle == "stays-in-simulation", "\(result.verdict)")
        #expect(result.verdict.message.contains("nothing in the simulation can resume it"), "\(result.verdict)")
        if canTell {
            #expect(AsyncCapture.outsideWaits.load(ordering: .relaxed) == waitsBefore, "no real-time wait")
        }
    }

    /// A serial executor that keeps what it is given and never runs it: work gone elsewhere.
    final class Elsewhere: SerialExecutor, @unchecked Sendable {
        let held = Mutex<[UnownedJob]>([])
        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            held.withLock { $0.append(job) }
        }
    }

    actor Remote {
        let executor: Elsewhere
        init(executor: Elsewhere) { self.executor = executor }
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        func poke() {}
    }

    /// The body hops onto an actor whose executor is not simrun's: the run names the escape at once,
    /// from the task's own state (queued elsewhere), and notes it as an `escape` it did not control.
    @Test(.enabled(if: TaskCensus.isReadable, "the runtime's task objects are not readable on this platform"))
    func workQueuedOutsideTheRunIsNamedAtOnce() throws {
        let executor = Elsewhere()
        let scenario = Scenario.async(name: "elsewhere", summary: "", variants: [.init("v", "")]) { _, _ in
            await Remote(executor: executor).poke()
        }
        let waitsBefore = AsyncCapture.outsideWaits.load(ordering: .relaxed)
        let result = scenario.run(variant: "v", seed: 0, strategy: FIFOStrategy())
        #expect(result.verdict.oracle == "stays-in-simulation", "\(result.verdict)")
        #expect(
            result.verdict.message.contains("task task is queued on an executor outside the simulation"),
            "\(result.verdict)")
        #expect(result.uncontrolled.map(\.kind) == [.escape], "\(result.uncontrolled)")
        #expect(AsyncCapture.outsideWaits.load(ordering: .relaxed) == waitsBefore, "no real-time wait")
        #expect(executor.held.withLock { $0.count } == 1, "the job went to the other executor")
    }
}
