/// Where a run's jobs run (DESIGN §11; the CarriersAndPreemption article).
///
/// `.off` is simrun's one-thread path: every job runs on the thread that called `run()`, a job always
/// runs to its end. With carriers, jobs run on carrier threads that take turns, exactly one at a time,
/// and a carrier whose job must wait (a lock held by a paused carrier, a condition, a blocking wait
/// through `Carriers.park`) parks instead of blocking the process. `.preemptLocks` also makes every
/// `pthread_mutex_lock` and `pthread_cond_*` on a carrier (what `NSLock`, `NSRecursiveLock`,
/// `NSCondition` and the concurrency runtime's own locks reach) a point where the scheduler may
/// switch carriers: a recorded pick, so a race inside synchronous code replays, shrinks and explains.
public enum CarrierMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One thread, jobs run to their end (the default).
    case off
    /// Carriers that take turns; lock operations are modelled (never block the process) but are
    /// not scheduling points.
    case carriers
    /// Carriers, and every lock acquisition is a scheduling point (`--preempt`).
    case preemptLocks = "preempt-locks"

    /// The mode's name as options and trace headers spell it.
    public var description: String { rawValue }
}

extension Scenario {
    /// This scenario with every run on carriers in `mode` (`.off`: unchanged). What `--preempt` does:
    ///
    /// ```swift
    /// let result = NSLockCancellation.scenario.running(on: .preemptLocks)
    ///     .run(variant: "buggy", seed: 3, strategy: PCTStrategy())
    /// ```
    public func running(on mode: CarrierMode) -> Scenario {
        guard mode != .off else { return self }
        var changed = self
        let setUp = self.setUp
        changed.setUp = { simulation, variant in
            simulation.carrierMode = mode
            setUp(simulation, variant)
        }
        return changed
    }
}
