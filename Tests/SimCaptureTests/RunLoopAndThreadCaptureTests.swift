import Dispatch
import Foundation
import SimTestSupport
import Testing

@testable import SimCapture
@testable import SimCore

/// Linux must interpose run loops and threads (a broken link fails the tests, never skips them);
/// elsewhere the tests run only if the platform reports them captured.
let foundationCaptureExpected = TestPlatform.isLinux || RunLoopCapturing.isActive

/// Foundation's run-loop timers and blocks, and threads, under the scheduler (issue #40), in the test
/// process: each runs inside the run at virtual time, or the run fails saying what it could not hold.
@Suite(.enabled(if: foundationCaptureExpected, "run loops and threads stay real on this platform (Linux only for now)"))
struct RunLoopAndThreadCaptureTests {
    final class Log: @unchecked Sendable {
        var entries: [String] = []
        func note(_ simulation: Simulation, _ text: String) {
            let lane = simulation.currentLane.map { simulation.symbols[$0.name] } ?? "-"
            entries.append("\(simulation.now / 1_000_000)ms \(lane) \(text)")
        }
    }

    @Test(.enabled(if: TestPlatform.isLinux, "the interposition layer is Linux's only for now"))
    func theInterposersAreTheProcesss() {
        #expect(RunLoopCapturing.isActive)
        #expect(simrunThreadsInterposed)
    }

    @Test func aMainRunLoopTimerFiresOnMainAtItsVirtualDateAndAnInvalidatedOneNever() {
        let log = Log()
        let result = simulate { sim in
            sim.post(on: "main", "schedule") {
                // Fire dates given explicitly: corelibs' `Timer(timeInterval:)` fires at once.
                let kept = Timer(fire: Date(timeIntervalSinceNow: 0.25), interval: 0, repeats: false) { _ in
                    log.note(sim, "fired")
                }
                RunLoop.main.add(kept, forMode: .default)
                let dropped = Timer(fire: Date(timeIntervalSinceNow: 0.1), interval: 0, repeats: false) { _ in
                    log.note(sim, "dropped fired")
                }
                RunLoop.main.add(dropped, forMode: .default)
                sim.post(on: "user", "invalidate") { dropped.invalidate() }
            }
        }
        #expect(result.verdict == .pass, "\(result.verdict)")
        #expect(log.entries == ["250ms main fired"])
    }

    @Test func aRepeatingTimerFiresEachIntervalUntilInvalidated() {
        let log = Log()
        let result = simulate { sim in
            sim.post(on: "main", "schedule") {
                let fires = Counter()
                _ = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: true) { timer in
                    fires.value += 1
                    log.note(sim, "tick \(fires.value)")
                    if fires.value == 3 { timer.invalidate() }
                }
            }
        }
        #expect(result.verdict == .pass, "\(result.verdict)")
        #expect(log.entries == ["100ms main tick 1", "200ms main tick 2", "300ms main tick 3"])
    }

    @Test func aRunLoopPerformBlockRunsOnMain() {
        let log = Log()
        let result = simulate { sim in
            sim.post(on: "user", "post") { RunLoop.main.perform { log.note(sim, "performed") } }
        }
        #expect(result.verdict == .pass && log.entries == ["0ms main performed"], "\(result.verdict) \(log.entries)")
    }

    @Test func aTimerOnAThreadsOwnRunLoopFailsTheRunSayingItWouldNeverFire() {
        let result = simulate { sim in
            sim.post(on: "worker", "schedule") {
                _ = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: false) { _ in }
            }
        }
        guard case .fail("stays-in-simulation", let message) = result.verdict else {
            Issue.record("\(result.verdict)")
            return
        }
        #expect(message.contains("a Timer on the run loop of a thread that does not run it"), "\(message)")
    }

    @Test func aThreadIsACarrierWithALaneSleepsOnVirtualTimeAndIsJoined() {
        let log = Log()
        let result = simulate(strategy: RandomStrategy()) { sim in
            sim.carrierMode = .carriers
            sim.post(on: "main", "start") {
                var thread = pthread_t()
                let box = Unmanaged.passRetained(ThreadBody { log.note(sim, "in thread, main thread: \(Thread.isMainThread)"); Thread.sleep(forTimeInterval: 0.5); log.note(sim, "slept") })
                pthread_create(&thread, nil, { raw in
                    let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
                    body.run()
                    return nil
                }, box.toOpaque())
                pthread_join(thread, nil)
                log.note(sim, "joined")
            }
        }
        #expect(result.verdict == .pass, "\(result.verdict)")
        let laneName = log.entries.first.map { $0.split(separator: " ")[1] } ?? ""
        #expect(laneName.hasPrefix("thread>"), "\(log.entries)")
        #expect(log.entries.dropFirst().map { $0.split(separator: " ", maxSplits: 2).map(String.init) }.map { "\($0[0]) \($0[2])" } == ["500ms slept", "500ms joined"], "\(log.entries)")
        #expect(log.entries.first?.hasSuffix("main thread: false") == true, "\(log.entries)")
    }

    @Test func aThreadOnTheOneThreadPathFailsTheRunNamingWhereItStarted() {
        let result = simulate { sim in
            sim.post(on: "main", "start") {
                Thread { Thread.sleep(forTimeInterval: 0.01) }.start()
            }
        }
        guard case .fail("stays-in-simulation", let message) = result.verdict else {
            Issue.record("\(result.verdict)")
            return
        }
        #expect(message.contains("runs outside the one-thread scheduler"), "\(message)")
    }
}

/// A count a timer's closure bumps (runs on the run's turn only).
final class Counter: @unchecked Sendable {
    var value = 0
}

/// A thread's body, handed through `pthread_create`'s argument.
final class ThreadBody: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
    func run() { body() }
}

let simrunThreadsInterposed: Bool = RunLoopCapturing.isActive && ThreadsCapture.isActive
