import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The child processes running now, so that a signal ending the command ends them too, before their
/// files are removed: a child left running would go on writing into a directory already cleaned
/// (`Interruption`). Lock-free slots, read by the thread that ends the process.
package enum ChildRegistry {
    private static let capacity = 1024
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<Int32>> = {
        let slots = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: capacity)
        for index in 0..<capacity { (slots + index).initialize(to: Atomic(0)) }
        return slots
    }()
    /// True once the process is ending: a child registered after that is killed at once.
    private static let ending = Atomic<Bool>(false)

    /// Allocates the table (before any signal can come).
    package static func prepare() { _ = slots }

    /// Records a running child; the slot to give back to `remove` when it has been waited for.
    package static func add(_ pid: pid_t) -> Int? {
        if ending.load(ordering: .acquiring) {
            kill(pid, SIGKILL)
            return nil
        }
        for index in 0..<capacity
        where slots[index].compareExchange(expected: 0, desired: pid, ordering: .acquiringAndReleasing).exchanged {
            return index
        }
        return nil
    }

    /// Forgets a child (it ended and was waited for).
    package static func remove(_ slot: Int?) {
        guard let slot else { return }
        slots[slot].store(0, ordering: .releasing)
    }

    /// Ends every registered child: SIGTERM (a child of simrun then removes the files it was
    /// writing), then, for those still there after a second, SIGKILL.
    static func endAll() {
        ending.store(true, ordering: .releasing)
        var pids: [pid_t] = []
        for index in 0..<capacity {
            let pid = slots[index].load(ordering: .acquiring)
            if pid > 0 { pids.append(pid) }
        }
        guard !pids.isEmpty else { return }
        for pid in pids { kill(pid, SIGTERM) }
        // A child that ended stays a zombie until waited for (by the thread that started it), which
        // `kill(pid, 0)` still finds: a second is the most this waits.
        for _ in 0..<100 {
            pids = pids.filter { kill($0, 0) == 0 && slotHolds($0) }
            if pids.isEmpty { return }
            usleep(10_000)
        }
        for pid in pids { kill(pid, SIGKILL) }
        usleep(50_000)
    }

    /// True while some slot still records `pid` (its starter has not waited for it yet).
    private static func slotHolds(_ pid: pid_t) -> Bool {
        for index in 0..<capacity where slots[index].load(ordering: .acquiring) == pid { return true }
        return false
    }
}
