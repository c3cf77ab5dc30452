import SimEngine

/// Wall-clock timing for the benchmark driver (never used inside a simulation).
enum Stopwatch {
    /// Seconds `body` took.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return (ContinuousClock.now - start).seconds
    }

    /// The fastest of `repetitions` timings: other processes only ever make a run slower.
    static func best(of repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
        var fastest = Double.infinity
        for _ in 0..<Swift.max(1, repetitions) { fastest = Swift.min(fastest, try time(body)) }
        return fastest
    }
}
