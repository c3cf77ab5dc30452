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

/// A FIFO of jobs in a ring buffer that reuses its storage (no allocation in the steady state).
@usableFromInline
struct JobQueue {
    @usableFromInline var slots: [Job?] = []
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { count == 0 }
    @inlinable var first: Job? { count == 0 ? nil : slots[head] }

    @inlinable
    mutating func append(_ job: Job) {
        if count == slots.count { grow() }
        var tail = head + count
        if tail >= slots.count { tail -= slots.count }
        slots[tail] = job
        count += 1
    }

    @inlinable
    mutating func removeFirst() -> Job {
        guard count > 0, let job = slots[head] else { preconditionFailure("removeFirst on an empty lane") }
        slots[head] = nil
        head += 1
        if head == slots.count { head = 0 }
        count -= 1
        return job
    }

    /// Doubles the ring, unrolling it so the head is at 0.
    @usableFromInline
    mutating func grow() {
        var grown: [Job?] = []
        grown.reserveCapacity(Swift.max(4, slots.count * 2))
        for offset in 0..<count { grown.append(slots[(head + offset) % slots.count]) }
        while grown.count < grown.capacity { grown.append(nil) }
        slots = grown
        head = 0
    }
}

/// Counts the jobs posted per label on one lane, for their ordinals. Lanes carry few labels, so a
/// short list scanned from the most recent beats hashing; many labels spill into a dictionary.
@usableFromInline
struct OrdinalCounter {
    @usableFromInline var labels: [Symbol] = []
    @usableFromInline var counts: [UInt32] = []
    @usableFromInline var spill: [Symbol: UInt32] = [:]
    @usableFromInline static let listLimit = 16

    @usableFromInline init() {}

    /// The ordinal of the next job with `label` (1 for the first).
    @inlinable
    mutating func next(_ label: Symbol) -> UInt32 {
        for index in labels.indices where labels[index] == label {
            counts[index] &+= 1
            return counts[index]
        }
        if labels.count < Self.listLimit {
            labels.append(label)
            counts.append(1)
            return 1
        }
        let ordinal = (spill[label] ?? 0) + 1
        spill[label] = ordinal
        return ordinal
    }
}
