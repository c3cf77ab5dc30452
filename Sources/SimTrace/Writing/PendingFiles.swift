import Synchronization

/// The temporary files this process is writing (a trace or result before its rename), so that a
/// signal handler ending the process can remove them: an interrupted command leaves nothing
/// half-written behind. Lock-free, since a handler may run while a slot is being changed; the
/// paths' memory is never freed, so a handler can never read a freed one (a few bytes a file).
public enum PendingFiles {
    private static let capacity = 64
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<Int>> = {
        let slots = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
        for index in 0..<capacity { (slots + index).initialize(to: Atomic(0)) }
        return slots
    }()

    /// True once a signal is ending the process (`close`): no new temporary file may be started.
    private static let closed = Atomic<Bool>(false)

    /// True once `close` was called: `FileOutput` then refuses to start a temporary file, which the
    /// ending process could no longer remove.
    public static var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Refuses new temporary files from now on (the process is ending at a signal).
    public static func close() { closed.store(true, ordering: .releasing) }

    /// Registers `path`; the slot to give back to `remove` (nil when every slot is taken: the file is
    /// then not removed on a signal, which only costs a stray temporary file).
    public static func add(_ path: String) -> Int? {
        guard let copy = strdup(path) else { return nil }
        let bits = Int(bitPattern: copy)
        for index in 0..<capacity
        where slots[index].compareExchange(
            expected: 0, desired: bits, ordering: .sequentiallyConsistent
        ).exchanged {
            return index
        }
        return nil
    }

    /// Forgets slot `index` (the file was renamed into place or deleted).
    public static func remove(_ index: Int?) {
        guard let index else { return }
        slots[index].store(0, ordering: .sequentiallyConsistent)
    }

    /// Allocates the table (before a signal handler can run, which must not allocate).
    public static func prepare() { _ = slots }

    /// Unlinks every registered file. Async-signal-safe: only atomic loads and `unlink`.
    public static func removeAll() {
        for index in 0..<capacity {
            let bits = slots[index].load(ordering: .sequentiallyConsistent)
            if bits != 0, let path = UnsafePointer<CChar>(bitPattern: bits) { unlink(path) }
        }
    }
}
