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

/// What the scheduler reads of a waiting job without touching its body.
@usableFromInline
struct JobMeta {
    @usableFromInline var label: Symbol
    @usableFromInline var ordinal: UInt32
    @usableFromInline var seq: UInt64
    @usableFromInline var cause: EventID
}

/// A job's body in a struct, so that storing it in a generic container keeps the closure's own
/// representation (a bare `(() -> Void)?` element is reabstracted through an allocated thunk).
@usableFromInline
struct JobBody {
    @usableFromInline var run: () -> Void
    /// Fills free slots (a closure without captures allocates nothing).
    @usableFromInline static var idle: JobBody { JobBody(run: {}) }
}

/// A FIFO of jobs in a ring buffer that reuses its storage (no allocation in the steady state).
///
/// Bodies and metadata live in separate rings so that looking at the head job (every step, for
/// every lane) copies plain values and never retains a closure.
@usableFromInline
struct JobQueue {
    @usableFromInline var meta: [JobMeta] = []
    @usableFromInline var bodies: [JobBody] = []
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    @usableFromInline init() {}

    var isEmpty: Bool { count == 0 }
    /// The head job's metadata; only valid when not empty.
    var firstMeta: JobMeta { meta[head] }

    @inline(__always)
    mutating func append(_ job: Job) {
        if count == meta.count { grow() }
        var tail = head + count
        if tail >= meta.count { tail -= meta.count }
        meta[tail] = JobMeta(label: job.label, ordinal: job.ordinal, seq: job.seq, cause: job.cause)
        bodies[tail] = JobBody(run: job.body)
        count += 1
    }

    @inline(__always)
    mutating func removeFirst() -> Job {
        precondition(count > 0, "removeFirst on an empty lane")
        let body = bodies[head].run
        bodies[head] = .idle
        let m = meta[head]
        head += 1
        if head == meta.count { head = 0 }
        count -= 1
        return Job(body: body, label: m.label, ordinal: m.ordinal, seq: m.seq, cause: m.cause)
    }

    /// Doubles the rings, unrolling them so the head is at 0.
    @usableFromInline
    mutating func grow() {
        let capacity = Swift.max(4, meta.count * 2)
        var grownMeta: [JobMeta] = []
        var grownBodies: [JobBody] = []
        grownMeta.reserveCapacity(capacity)
        grownBodies.reserveCapacity(capacity)
        for offset in 0..<count {
            let index = (head + offset) % meta.count
            grownMeta.append(meta[index])
            grownBodies.append(bodies[index])
        }
        let blank = JobMeta(label: .empty, ordinal: 0, seq: 0, cause: 0)
        while grownMeta.count < capacity {
            grownMeta.append(blank)
            grownBodies.append(.idle)
        }
        meta = grownMeta
        bodies = grownBodies
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
    @inline(__always)
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
