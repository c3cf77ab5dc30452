/// A non-recursive mutex: `lock` blocks while another thread (or the same one) holds it.
public final class BenchMutex {
    /// The name used in job labels and deadlock messages.
    public let name: String
    /// The name of the thread holding it, or nil. (A name, not the thread: a thread that ends holding
    /// a mutex keeps it held, as in C, without the mutex keeping the thread alive.)
    public internal(set) var owner: String?

    init(name: String) { self.name = name }

    /// Whether some thread holds it.
    public var isHeld: Bool { owner != nil }
}

/// A condition variable: `wait` releases its mutex and sleeps until a `signal` or `broadcast`.
/// Wake-ups are never spurious, and a signal with no waiter is lost (as with pthreads).
public final class BenchCondition {
    /// The name used in job labels and deadlock messages.
    public let name: String
    /// Threads waiting, oldest first. Weak: each is also held by its queued re-take job.
    var waiters: [WeakWaiter] = []

    init(name: String) { self.name = name }
}

struct WeakWaiter {
    weak var thread: BenchThread?
}
