import SimCore
import CSimInterpose

/// `Synchronization.Mutex` under the scheduler (issue #40, mutex.c). The Mutex's fast path is
/// inlined into the program and never calls a lock function; what reaches the run is each use's
/// request for the thread's id. In a debug build every lock, try and unlock arrives here and is a
/// lock point under `--preempt`; in an optimised build only the first use after each point does, and
/// the run says which Mutexes it could not fully see. Contention (a carrier paused inside a critical
/// section) parks the contender on the lock word, as for a pthread mutex.
extension CarrierSet {
    func mutexUse(_ operation: Int32, caller: UnsafeRawPointer?) {
        let label = siteLabel(operation, caller, Int32(SIMRUN_SITE_MUTEX))
        if operation == Int32(SIMRUN_LOCK_MUTEX_FIRST) { notePartlySeenMutex(label) }
        guard preempt, simrun_locks_one_time_depth() == 0 else { return }
        lockPoints += 1
        guard paused.count < Self.maxCarriers - 1 else { return }
        pause(.ready, label: label) { "a Mutex (preempted)" }
    }

    /// A Mutex an optimised build inlined: its uses after the first in a stretch are not points.
    private func notePartlySeenMutex(_ label: Symbol) {
        let site = simulation.symbols[label].dropFirst("mutex ".count)
        simulation.noteUncontrolled(
            .invisibleLock,
            "Synchronization.Mutex, inlined by an optimised build: only its first use after each scheduling point is one",
            at: String(site))
    }
}
