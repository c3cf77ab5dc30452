import SimCore
import CSimInterpose
import Synchronization

/// Watches the runs on carriers of this process from a thread of its own: a run whose turn holder
/// neither picks nor hands off for `timeoutMilliseconds` is blocked outside the model (the kernel, a
/// futex, a real wait). Its driver is woken to end the run with a `deadlock` verdict that says so;
/// the stuck carrier is abandoned. Real time only decides *when* the report comes, never a schedule.
enum CarrierWatchdog {
    static let timeoutMilliseconds = Atomic<Int>(5_000)
    private static let watched = Mutex<[Watched]>([])
    private static let started = Atomic<Bool>(false)
    private static let pollMicroseconds: UInt32 = 20_000

    private struct Watched: @unchecked Sendable {
        unowned(unsafe) let set: CarrierSet
        var lastEpoch: UInt64
        var quietPolls: Int
    }

    static func watch(_ set: CarrierSet) {
        watched.withLock { $0.append(Watched(set: set, lastEpoch: .max, quietPolls: 0)) }
        if !started.exchange(true, ordering: .acquiringAndReleasing) {
            _ = simrun_thread_spawn(watchdogEntry, nil)
        }
    }

    static func unwatch(_ set: CarrierSet) {
        watched.withLock { $0.removeAll { $0.set === set } }
    }

    fileprivate static func poll() {
        let limit = max(1, timeoutMilliseconds.load(ordering: .relaxed) * 1_000 / Int(pollMicroseconds))
        watched.withLock { entries in
            for index in entries.indices {
                let set = entries[index].set
                let epoch = set.epoch.load(ordering: .relaxed)
                if epoch != entries[index].lastEpoch {
                    entries[index].lastEpoch = epoch
                    entries[index].quietPolls = 0
                    continue
                }
                entries[index].quietPolls += 1
                guard entries[index].quietPolls == limit else { continue }
                fire(set)
            }
        }
    }

    private static func fire(_ set: CarrierSet) {
        let stuck = set.current
        let seconds = Double(timeoutMilliseconds.load(ordering: .relaxed)) / 1_000
        let message =
            "a carrier holding the turn made no progress for \(seconds) s: blocked outside the model (a "
            + "Synchronization.Mutex or DispatchQueue.sync held by a paused carrier, a lazy global's one-time "
            + "initialisation, a real wait); simrun cannot preempt there"
        if stuck === set.driver {
            fatalError("simrun watchdog: \(message) (on the main thread, which cannot be taken back)")
        }
        set.stuckMessage = message
        set.abandoned.store(true, ordering: .releasing)
        set.ended = true
        set.driver.mail = .finish
        set.driver.post()
    }
}

private let watchdogEntry: @convention(c) (UnsafeMutableRawPointer?) -> Void = { _ in
    while true {
        _ = usleep(20_000)
        CarrierWatchdog.poll()
    }
}

