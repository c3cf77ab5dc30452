import Dispatch
import SimCapture
import SimCore

/// The clock variants of the capture probe: code that reads `ContinuousClock.now`,
/// `SuspendingClock.now`, `DispatchTime.now()`, `DispatchWallTime.now()` and the C clocks, and sleeps
/// odd durations (7 ms, 16 ms, 333 ms), must see exactly the run's virtual time at every reading.
extension CaptureProbe {
    static func clockReads(_ sim: SimulationRef, _ log: ProbeLog) async {
        let origin = ClockOrigin(sim)
        origin.check(sim, log, at: .zero)
        try? await Task.sleep(for: .milliseconds(7))
        origin.check(sim, log, at: .milliseconds(7))
        try? await ContinuousClock().sleep(for: .milliseconds(16))
        origin.check(sim, log, at: .milliseconds(23))
        try? await SuspendingClock().sleep(until: .now + .milliseconds(333))
        origin.check(sim, log, at: .milliseconds(356))
    }

    static func clockReadsInMainAndTask(_ sim: SimulationRef, _ log: ProbeLog) async {
        let origin = ClockOrigin(sim)
        await Task {
            try? await Task.sleep(for: .milliseconds(7))
            origin.check(sim, log, at: .milliseconds(7), lanePrefix: CaptureProbe.childTask)
        }.value
        await clockReadsOnMain(sim, log, origin)
        origin.check(sim, log, at: .milliseconds(356))
    }

    @MainActor static func clockReadsOnMain(_ sim: SimulationRef, _ log: ProbeLog, _ origin: ClockOrigin) async {
        // A debounce window measured the way app code measures it.
        let start = ContinuousClock.now
        try? await Task.sleep(for: .milliseconds(16))
        let window = ContinuousClock.now - start
        if window != .milliseconds(16) { log.note("a 16 ms debounce window measured \(window)") }
        origin.check(sim, log, at: .milliseconds(23), lanePrefix: "main")
        await Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(333))
            origin.check(sim, log, at: .milliseconds(356), lanePrefix: "main")
        }.value
    }
}

/// The clocks' readings at virtual time zero of the run.
struct ClockOrigin: Sendable {
    let continuous: ContinuousClock.Instant
    let suspending: SuspendingClock.Instant

    init(_ sim: SimulationRef) {
        continuous = .now
        suspending = .now
        let start = sim.simulation.now
        precondition(start == 0, "the probe starts at virtual time zero")
    }

    /// Every clock must read the virtual time `at` (and the run's clock must be there too).
    func check(_ sim: SimulationRef, _ log: ProbeLog, at time: Duration, lanePrefix: String = "task") {
        log.expect(sim, lanePrefix: lanePrefix, at: time)
        let now = sim.simulation.now
        let elapsed = Duration.nanoseconds(now)
        if ContinuousClock.now - continuous != elapsed {
            log.note("ContinuousClock.now is \(ContinuousClock.now - continuous) after the start at virtual \(elapsed)")
        }
        if SuspendingClock.now - suspending != elapsed {
            log.note("SuspendingClock.now is \(SuspendingClock.now - suspending) after the start at virtual \(elapsed)")
        }
        let monotonic = VirtualClocks.monotonicEpoch.nanosecondsClamped + now
        let uptime = DispatchTime.now().uptimeNanoseconds
        if uptime != UInt64(monotonic) { log.note("DispatchTime.now() is \(uptime) ns at virtual \(elapsed)") }
        let wallSeconds = VirtualClocks.wallClockEpochUnixSeconds + now / 1_000_000_000
        let wallNanoseconds = now % 1_000_000_000
        let wall = DispatchWallTime(timespec: timespec(tv_sec: Int(wallSeconds), tv_nsec: Int(wallNanoseconds)))
        if DispatchWallTime.now() != wall {
            log.note("DispatchWallTime.now() is not the virtual wall clock at \(elapsed)")
        }
        #if canImport(Glibc) || canImport(Musl)
            checkCClocks(log, monotonic: monotonic, wallSeconds: wallSeconds, wallNanoseconds: wallNanoseconds, elapsed)
        #endif
    }

    #if canImport(Glibc) || canImport(Musl)
        /// The C calls beneath the Swift clocks, called directly as C or C++ code in the app would.
        private func checkCClocks(
            _ log: ProbeLog, monotonic: Int64, wallSeconds: Int64, wallNanoseconds: Int64, _ elapsed: Duration
        ) {
            for (name, id) in [("CLOCK_MONOTONIC", CLOCK_MONOTONIC), ("CLOCK_BOOTTIME", CLOCK_BOOTTIME)] {
                var reading = timespec()
                clock_gettime(id, &reading)
                if Int64(reading.tv_sec) * 1_000_000_000 + Int64(reading.tv_nsec) != monotonic {
                    log.note(
                        "clock_gettime(\(name)) is \(reading.tv_sec) s \(reading.tv_nsec) ns at virtual \(elapsed)")
                }
            }
            var realtime = timespec()
            clock_gettime(CLOCK_REALTIME, &realtime)
            if Int64(realtime.tv_sec) != wallSeconds || Int64(realtime.tv_nsec) != wallNanoseconds {
                log.note("clock_gettime(CLOCK_REALTIME) is \(realtime.tv_sec) s at virtual \(elapsed)")
            }
            var day = timeval()
            gettimeofday(&day, nil)
            if Int64(day.tv_sec) != wallSeconds || Int64(day.tv_usec) != wallNanoseconds / 1_000 {
                log.note("gettimeofday is \(day.tv_sec) s \(day.tv_usec) µs at virtual \(elapsed)")
            }
            let seconds = time(nil)
            if Int64(seconds) != wallSeconds { log.note("time() is \(seconds) at virtual \(elapsed)") }
        }
    #endif
}
