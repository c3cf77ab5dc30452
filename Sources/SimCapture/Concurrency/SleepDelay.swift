import SimCore

/// The virtual delay of a `Task.sleep` (or a clock's `sleep`) captured on a run's thread.
///
/// The runtime hands the executor a delay (or a deadline) it computed from the clock the sleep is on,
/// read during the sleeping job. Where simrun's clocks are virtual (`VirtualClocks.areVirtual`: Linux)
/// that clock is the run's, which does not move during a job, so the delay is exactly the duration the
/// code asked for, whatever the machine's load. Where the clocks stay real (macOS) the delay is short
/// by the real time the job ran before it slept, and `roundest` recovers the duration code usually
/// writes.
enum SleepDelay {
    /// The virtual delay for a sleep whose runtime-computed delay is `delay`; `computedFromNow` is
    /// false for a delay the runtime did not measure on a clock (e.g. `Task.sleep(nanoseconds:)`).
    static func virtual(_ delay: Duration, computedFromNow: Bool, jobStart: ContinuousClock.Instant) -> Duration {
        if !computedFromNow || VirtualClocks.areVirtualOnThisThread { return max(delay, .zero) }
        return roundest(lower: delay, span: ContinuousClock.now - jobStart)
    }

    /// Only where the clocks stay real: the requested duration lies in `lower ... lower + span` (span =
    /// the real time the sleeping job had run), and people write round durations, so this takes the
    /// multiple of the largest power of ten (from 1 s down to 1 ns) in the interval. The same sleep
    /// then gives the same delay unless the job ran longer than the distance to a rounder value.
    static func roundest(lower: Duration, span: Duration) -> Duration {
        let low = max(0, lower.nanosecondsClamped)
        let high = low &+ max(0, span.nanosecondsClamped)
        var unit: Int64 = 1_000_000_000
        while unit >= 1 {
            let candidate = (low + unit - 1) / unit * unit
            if candidate <= high { return .nanoseconds(candidate) }
            unit /= 10
        }
        return .nanoseconds(low)
    }
}
