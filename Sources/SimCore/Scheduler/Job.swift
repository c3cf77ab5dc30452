/// A unit of work waiting on a lane (or a timer waiting for its deadline).
@usableFromInline
struct Job {
    @usableFromInline var body: () -> Void
    @usableFromInline var label: Symbol
    @usableFromInline var ordinal: UInt32
    /// Global posting order: `fifo` takes the smallest.
    @usableFromInline var seq: UInt64
    @usableFromInline var cause: EventID

    @usableFromInline
    init(body: @escaping () -> Void, label: Symbol, ordinal: UInt32, seq: UInt64, cause: EventID) {
        self.body = body
        self.label = label
        self.ordinal = ordinal
        self.seq = seq
        self.cause = cause
    }
}

/// A FIFO of jobs that reuses its storage (no allocation in the steady state).
@usableFromInline
struct JobQueue {
    @usableFromInline var items: [Job] = []
    @usableFromInline var head = 0

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { head == items.count }
    @inlinable var count: Int { items.count - head }
    @inlinable var first: Job? { isEmpty ? nil : items[head] }

    @inlinable
    mutating func append(_ job: Job) { items.append(job) }

    @inlinable
    mutating func removeFirst() -> Job {
        precondition(!isEmpty, "removeFirst on an empty lane")
        let job = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return job
    }
}
