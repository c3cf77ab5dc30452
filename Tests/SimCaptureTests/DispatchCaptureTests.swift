import Dispatch
import Foundation
import SimTestSupport
import Testing

@testable import SimCapture
@testable import SimCore

/// Linux must interpose GCD (a broken link fails the tests, never skips them); elsewhere the tests run
/// only if the platform reports GCD captured.
let dispatchCaptureExpected = TestPlatform.isLinux || DispatchCapturing.isActive

/// Grand Central Dispatch under the scheduler, in the test process (issue #31): kernel scenarios that
/// use real GCD code, run on the run's thread.
@Suite(.enabled(if: dispatchCaptureExpected, "GCD stays real on this platform (Linux only for now)"))
struct DispatchCaptureTests {
    /// What blocks saw: a log of (virtual time, lane, text).
    final class Log: @unchecked Sendable {
        var entries: [(time: Int64, lane: String, text: String)] = []
        func note(_ simulation: Simulation, _ text: String) {
            let lane = simulation.currentLane.map { simulation.symbols[$0.name] } ?? "-"
            entries.append((simulation.now, lane, text))
        }
    }

    static func scenario(_ body: @escaping @Sendable (Simulation, Log) -> Void, log: Log) -> Scenario {
        Scenario(name: "gcd", summary: "", variants: [.init("default", "")]) { simulation, _ in body(simulation, log) }
    }

    @Test(.enabled(if: TestPlatform.isLinux, "the interposition layer is Linux's only for now"))
    func linuxHasTheInterposers() {
        // On Linux the matrix's GCD rows say "captured" only because this holds: if a toolchain or a
        // link change made libdispatch's definitions win, this fails instead of the rows flipping.
        #expect(DispatchCapturing.isActive)
    }

    /// A 2-second `asyncAfter` fires at virtual 2 s and costs no real time: 20 runs of it take far less
    /// real time than one real 2-second wait (a bound 10x too generous for any loaded machine to miss).
    @Test func asyncAfterOfTwoSecondsCostsNoRealTime() {
        let realStart = runOnPlainThread { ContinuousClock.now }
        for seed in 0..<20 {
            let log = Log()
            let result = Self.scenario(
                { simulation, log in
                    DispatchQueue.main.asyncAfter(deadline: .now() + .seconds(2)) { log.note(simulation, "fired") }
                }, log: log
            ).run(variant: "default", seed: UInt64(seed), strategy: RandomStrategy())
            #expect(result.verdict == .pass)
            #expect(log.entries.map(\.time) == [2_000_000_000], "\(log.entries)")
            #expect(log.entries.map(\.lane) == ["main"])
            #expect(result.endTime == 2_000_000_000)
        }
        let realElapsed = runOnPlainThread { ContinuousClock.now } - realStart
        #expect(realElapsed < .seconds(4), "20 runs of a 2 s asyncAfter took \(realElapsed) of real time")
    }

    @Test func serialQueuesKeepFIFOAndConcurrentQueuesAreExplored() {
        var orders: Set<[String]> = []
        for seed in 0..<30 {
            let log = Log()
            let result = Self.scenario(
                { simulation, log in
                    let serial = DispatchQueue(label: "s")
                    let concurrent = DispatchQueue(label: "c", attributes: .concurrent)
                    for index in 0..<3 { serial.async { log.note(simulation, "s\(index)") } }
                    for index in 0..<2 { concurrent.async { log.note(simulation, "c\(index)") } }
                }, log: log
            ).run(variant: "default", seed: UInt64(seed), strategy: RandomStrategy())
            #expect(result.verdict == .pass)
            let serial = log.entries.filter { $0.text.hasPrefix("s") }
            #expect(serial.map(\.text) == ["s0", "s1", "s2"])
            #expect(Set(serial.map(\.lane)) == ["dispatch:s"])
            orders.insert(log.entries.map(\.text))
        }
        #expect(orders.count > 3, "seeds explore the orders: \(orders)")
    }

    @Test func aSemaphoreNothingCanSignalIsADeadlockNamingTheWaiter() {
        let log = Log()
        let result = Self.scenario(
            { simulation, log in
                let semaphore = DispatchSemaphore(value: 0)
                DispatchQueue.main.async {
                    semaphore.wait()
                    log.note(simulation, "after wait")
                }
            }, log: log
        ).run(variant: "default", seed: 0, strategy: FIFOStrategy())
        guard case .deadlock(let message) = result.verdict else {
            Issue.record("expected a deadlock, got \(result.verdict)")
            return
        }
        #expect(message.contains("main waits for DispatchSemaphore#1"), "\(message)")
    }

    @Test func aWaitWithATimeoutTimesOutOnVirtualTime() {
        let log = Log()
        let result = Self.scenario(
            { simulation, log in
                DispatchQueue.global().async {
                    let outcome = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(1_500))
                    log.note(simulation, outcome == .timedOut ? "timed out" : "acquired")
                }
            }, log: log
        ).run(variant: "default", seed: 0, strategy: FIFOStrategy())
        #expect(result.verdict == .pass)
        #expect(log.entries.map(\.text) == ["timed out"])
        #expect(log.entries.map(\.time) == [1_500_000_000])
    }

    @Test func syncOntoTheQueueItRunsOnIsADeadlock() {
        let result = Self.scenario(
            { _, _ in
                let queue = DispatchQueue(label: "self-sync")
                queue.async { queue.sync {} }
            }, log: Log()
        ).run(variant: "default", seed: 0, strategy: FIFOStrategy())
        guard case .fail(let oracle, let message) = result.verdict else {
            Issue.record("expected a failure, got \(result.verdict)")
            return
        }
        #expect(oracle == "deadlock")
        #expect(message.contains("dispatch:self-sync"), "\(message)")
    }

    @Test func theSameSeedRunsTheSameAndEveryPickIsADecision() {
        let run = { (seed: UInt64) -> RunResult in
            Self.scenario(
                { simulation, log in
                    let group = DispatchGroup()
                    for index in 0..<3 {
                        DispatchQueue.global().async(group: group) { log.note(simulation, "g\(index)") }
                    }
                    group.notify(queue: .main) { log.note(simulation, "notified") }
                }, log: Log()
            ).run(variant: "default", seed: seed, strategy: RandomStrategy())
        }
        let first = run(7)
        let second = run(7)
        #expect(first.verdict == .pass)
        #expect(first.digest == second.digest)
        #expect(first.tape.decisions == second.tape.decisions)
        #expect(first.tape.decisions.count >= 2)
    }

    @Test func wallDeadlinesAndTargetQueuesMapAsDocumented() {
        let log = Log()
        let key = DispatchSpecificKey<String>()
        let result = Self.scenario(
            { simulation, log in
                let parent = DispatchQueue(label: "parent")
                parent.setSpecific(key: key, value: "parent")
                let child = DispatchQueue(label: "child", target: parent)
                let onMain = DispatchQueue(label: "ui", target: .main)
                child.async { log.note(simulation, "child sees \(DispatchQueue.getSpecific(key: key) ?? "nil")") }
                onMain.async { log.note(simulation, "ui") }
                DispatchQueue.global().asyncAfter(wallDeadline: .now() + .milliseconds(750)) {
                    log.note(simulation, "wall")
                }
            }, log: log
        ).run(variant: "default", seed: 0, strategy: FIFOStrategy())
        #expect(result.verdict == .pass)
        let byText = Dictionary(uniqueKeysWithValues: log.entries.map { ($0.text, ($0.lane, $0.time)) })
        #expect(byText["child sees parent"]?.0 == "dispatch:parent", "\(log.entries)")
        #expect(byText["ui"]?.0 == "main", "\(log.entries)")
        #expect(byText["wall"]?.1 == 750_000_000, "\(log.entries)")
    }

    @Test func mainQueueBlocksAreTheMainActorsAndPreconditionsAreFindings() {
        let log = Log()
        let passing = Self.scenario(
            { simulation, log in
                DispatchQueue.main.async {
                    dispatchPrecondition(condition: .onQueue(.main))
                    MainActor.assumeIsolated { log.note(simulation, "isolated") }
                }
                DispatchQueue.global().async {
                    DispatchQueue.main.sync { MainActor.assumeIsolated { log.note(simulation, "main.sync") } }
                }
                let serial = DispatchQueue(label: "bg")
                serial.async {
                    dispatchPrecondition(condition: .onQueue(serial))
                    dispatchPrecondition(condition: .notOnQueue(.main))
                    log.note(simulation, "bg")
                }
            }, log: log
        ).run(variant: "default", seed: 0, strategy: FIFOStrategy())
        #expect(passing.verdict == .pass)
        #expect(log.entries.map(\.text).sorted() == ["bg", "isolated", "main.sync"])
        #expect(log.entries.first { $0.text == "main.sync" }?.lane == "main")
        let failing = Self.scenario(
            { _, _ in DispatchQueue.global().async { dispatchPrecondition(condition: .onQueue(.main)) } }, log: Log()
        ).run(variant: "default", seed: 0, strategy: FIFOStrategy())
        guard case .fail(let oracle, let message) = failing.verdict else {
            Issue.record("expected a failed precondition, got \(failing.verdict)")
            return
        }
        #expect(oracle == "dispatch-precondition")
        #expect(message.contains("global:"), "\(message)")
    }

    @Test func aBarrierSyncWaitsForTheBlocksBeforeItAndHoldsThoseAfter() {
        for seed in 0..<20 {
            let log = Log()
            let result = Self.scenario(
                { simulation, log in
                    let queue = DispatchQueue(label: "rw", attributes: .concurrent)
                    queue.async { log.note(simulation, "r1") }
                    queue.async { log.note(simulation, "r2") }
                    DispatchQueue.global().async {
                        queue.sync(flags: .barrier) { log.note(simulation, "w") }
                        queue.async { log.note(simulation, "r3") }
                    }
                }, log: log
            ).run(variant: "default", seed: UInt64(seed), strategy: RandomStrategy())
            #expect(result.verdict == .pass)
            let texts = log.entries.map(\.text)
            #expect(Set(texts.prefix(2)) == ["r1", "r2"] && Array(texts.suffix(2)) == ["w", "r3"], "\(texts)")
        }
    }

    /// Waits nest on the run's thread until carriers take turns: one more than the bound fails the run
    /// with `dispatch-wait` (never a stack overflow or a hang), and the calls are counted as captured.
    @Test func nestedWaitsAreBoundedAndSaySo() {
        let before = DispatchCapturing.capturedCalls
        let depth = DispatchCapturing.maxNestedWaits + 1
        let result = Self.scenario(
            { _, _ in
                // Level k waits for a semaphore that level k+1 would signal: each wait runs the next level.
                @Sendable func level(_ k: Int, signal: DispatchSemaphore?) {
                    DispatchQueue(label: "level\(k)").async {
                        if k < depth {
                            let semaphore = DispatchSemaphore(value: 0)
                            level(k + 1, signal: semaphore)
                            semaphore.wait()
                        }
                        signal?.signal()
                    }
                }
                level(0, signal: nil)
            }, log: Log()
        ).run(variant: "default", seed: 0, strategy: FIFOStrategy())
        guard case .fail(let oracle, let message) = result.verdict else {
            Issue.record("expected dispatch-wait, got \(result.verdict)")
            return
        }
        #expect(oracle == "dispatch-wait")
        #expect(message.contains("more than \(DispatchCapturing.maxNestedWaits) blocking waits"), "\(message)")
        #expect(DispatchCapturing.capturedCalls > before)
        #expect(DispatchCapturing.requireActive(Simulation(seed: 0, strategy: FIFOStrategy())))
    }

    @Test func outsideARunGCDIsLibdispatchs() async {
        // A thread bound to no run: the block runs on libdispatch's threads, at real time.
        let ran = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async { continuation.resume(returning: true) }
        }
        #expect(ran)
        let semaphore = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { semaphore.signal() }
        #expect(semaphore.wait(timeout: .now() + .seconds(30)) == .success)
    }
}
