import Dispatch
import Foundation
import SimTestSupport
import Testing

@testable import SimCapture
@testable import SimCore

/// The clocks user code reads, inside a run in the test process: virtual on the run's thread, real
/// everywhere else (Linux; on macOS the clocks stay real and `areVirtual` says so).
@Suite(
    .enabled(
        if: virtualClocksExpected, "the clocks stay real on this platform (SimCore's article 'Your own async code')"))
struct VirtualClockTests {
    /// What a job read from each clock, and the run's virtual time then.
    final class Readings: @unchecked Sendable {
        var rows: [(virtual: Int64, date: Date, continuous: ContinuousClock.Instant, uptime: UInt64)] = []
        var offThread: Date?
    }

    /// A kernel scenario (no Swift concurrency): timers at odd instants read every clock.
    static func kernelScenario(_ readings: Readings) -> Scenario {
        Scenario(name: "clocks", summary: "", variants: [.init("default", "")]) { simulation, _ in
            let read = {
                readings.rows.append(
                    (simulation.now, Date(), ContinuousClock.now, DispatchTime.now().uptimeNanoseconds))
            }
            read()  // in the set-up, at virtual zero
            for milliseconds in [7, 16, 333] {
                simulation.after(.milliseconds(milliseconds), "tick") { read() }
            }
            simulation.after(.milliseconds(400), "thread") {
                // A thread the run does not own reads the real clock.
                readings.offThread = runOnPlainThread { Date() }
            }
        }
    }

    @Test func clocksReadInARunAreItsVirtualClockAndRealOutside() throws {
        try #require(VirtualClocks.areVirtual, "Linux links simrun's clock interposers into every test executable")
        let readings = Readings()
        let result = Self.kernelScenario(readings).run(variant: "default", seed: 1, strategy: FIFOStrategy())
        #expect(result.verdict == .pass)
        #expect(readings.rows.map(\.virtual) == [0, 7_000_000, 16_000_000, 333_000_000])
        let origin = try #require(readings.rows.first)
        let epoch = Date(timeIntervalSince1970: TimeInterval(VirtualClocks.wallClockEpochUnixSeconds))
        for row in readings.rows {
            #expect(
                abs(row.date.timeIntervalSince(epoch) - Double(row.virtual) / 1e9) < 1e-6, "Date() at \(row.virtual)")
            #expect(row.continuous - origin.continuous == .nanoseconds(row.virtual))
            #expect(row.uptime == UInt64(VirtualClocks.monotonicEpoch.nanosecondsClamped + row.virtual))
        }
        // Outside the run, and on a thread the run does not own: real time (this test runs after 2025).
        let offThread = try #require(readings.offThread)
        #expect(offThread.timeIntervalSince(epoch) > 86_400, "a clock read off the run's thread is real")
        #expect(Date().timeIntervalSince(epoch) > 86_400)
        #expect(!VirtualClocks.areVirtualOnThisThread)
    }

    /// The C library's clocks are interposed on Linux only (Darwin has no CLOCK_BOOTTIME either).
    @Test(.enabled(if: TestPlatform.isLinux, "the C clocks are interposed on Linux only"))
    func theCClocksAreVirtualAndCPUTimeStaysReal() throws {
        #if os(Linux)
            try #require(VirtualClocks.areVirtual)
            final class Seen: @unchecked Sendable {
                var realtime = timespec()
                var boottime = timespec()
                var day = timeval()
                var seconds: time_t = 0
                var utc = timespec()
                var bound = false
            }
            let seen = Seen()
            let scenario = Scenario(name: "c-clocks", summary: "", variants: [.init("default", "")]) { simulation, _ in
                simulation.after(.nanoseconds(1_234_567_891), "read") {
                    clock_gettime(CLOCK_REALTIME, &seen.realtime)
                    clock_gettime(CLOCK_BOOTTIME, &seen.boottime)
                    gettimeofday(&seen.day, nil)
                    seen.seconds = time(nil)
                    timespec_get(&seen.utc, TIME_UTC)
                    seen.bound = VirtualClocks.areVirtualOnThisThread
                }
            }
            let before = VirtualClocks.virtualReads
            #expect(scenario.run(variant: "default", seed: 0, strategy: FIFOStrategy()).verdict == .pass)
            let epoch = Int(VirtualClocks.wallClockEpochUnixSeconds)
            #expect(seen.bound)
            #expect(seen.realtime.tv_sec == epoch + 1 && seen.realtime.tv_nsec == 234_567_891)
            #expect(seen.boottime.tv_sec == 2 && seen.boottime.tv_nsec == 234_567_891, "monotonic epoch 1 s")
            #expect(seen.day.tv_sec == epoch + 1 && seen.day.tv_usec == 234_567)
            #expect(seen.seconds == epoch + 1)
            #expect(seen.utc.tv_sec == epoch + 1 && seen.utc.tv_nsec == 234_567_891)
            #expect(VirtualClocks.virtualReads >= before + 5)
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            #expect(now.tv_sec > epoch + 86_400, "outside a run the C library answers")
        #else
            Issue.record("the C clocks are interposed on Linux only: this test runs nowhere else")
        #endif
    }

    /// Plain async code in the test process (enqueue-hook route): the body's sleeps are exact and its
    /// clock readings virtual, however long the job ran before sleeping.
    @Test func asyncSleepsAreExactInTheTestProcess() throws {
        try #require(VirtualClocks.areVirtual)
        let readings = Readings()
        let scenario = Scenario.async(
            name: "exact-sleeps", summary: "", variants: [.init("default", "")], concurrency: .eitherRoute
        ) { simulation, _ in
            for milliseconds in [7, 16, 333] {
                // 5 ms of real time inside the job (virtual time stands still): a delay rounded from the
                // real clock would give 10 ms and 20 ms for the first two sleeps.
                usleep(5_000)
                try? await Task.sleep(for: .milliseconds(milliseconds))
                readings.rows.append(
                    (simulation.now, Date(), ContinuousClock.now, DispatchTime.now().uptimeNanoseconds))
            }
        }
        #expect(scenario.run(variant: "default", seed: 3, strategy: RandomStrategy()).verdict == .pass)
        #expect(readings.rows.map(\.virtual) == [7_000_000, 23_000_000, 356_000_000])
        let epoch = Date(timeIntervalSince1970: TimeInterval(VirtualClocks.wallClockEpochUnixSeconds))
        for row in readings.rows {
            #expect(abs(row.date.timeIntervalSince(epoch) - Double(row.virtual) / 1e9) < 1e-6)
            #expect(row.uptime == UInt64(VirtualClocks.monotonicEpoch.nanosecondsClamped + row.virtual))
        }
    }

    /// Where the clocks stay real, a sleep's delay comes rounded from the runtime's: kept only there.
    @Test func theRoundingFallbackIsOnlyForRealClocks() {
        let delay = SleepDelay.virtual(
            .nanoseconds(6_999_000), computedFromNow: false, jobStart: ContinuousClock.now)
        #expect(delay == .nanoseconds(6_999_000), "a delay not measured on a clock is taken as it is")
    }
}

/// Linux must interpose the clocks (a broken link fails the tests, never skips them); elsewhere the
/// tests run only if the platform reports virtual clocks.
let virtualClocksExpected = TestPlatform.isLinux || VirtualClocks.areVirtual
