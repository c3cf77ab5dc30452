import Synchronization

/// The stop line of a campaign that stops at its first failure: the lowest failing seed found so far
/// (`.max` while none). No worker starts a seed above it, and every seed below it still runs, so the
/// campaign reports the lowest failing seed whatever the number of workers. One definition serves the
/// threads' board and the worker processes' mapped board.
extension Atomic where Value == UInt64 {
    /// Lowers the stop line to `seed` (no-op when it is already at or below it).
    ///
    /// A compare-exchange loop, not `min(_:ordering:)`: `Atomic<UInt64>.min` in Swift 6.3.1 on Linux
    /// returns the new minimum without storing it.
    package func lowerStopLine(to seed: UInt64) {
        var current = load(ordering: .relaxed)
        while seed < current {
            let (exchanged, original) = compareExchange(expected: current, desired: seed, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
