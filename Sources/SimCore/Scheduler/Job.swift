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
/// representation.
@usableFromInline
struct JobBody {
    @usableFromInline var run: () -> Void
}

/// A FIFO of jobs in a ring buffer that reuses its storage (no allocation in the steady state).
///
/// Manually managed rings inside a lane kept in a `LaneTable`: posting and taking a job then needs
/// no uniqueness check of the lane array or of the rings (three `isUniquelyReferenced` calls per
/// job before) and no retain of a queue object, and a body is moved out of its slot instead of
/// copied and replaced. Bodies and metadata live in separate rings so that looking at the head job
/// copies plain values and never retains a closure. Bodies are stored wrapped in `JobBody`: a bare
/// `() -> Void` element of a generic buffer is reabstracted through an allocated thunk on the way
/// in and out (a malloc/free per job).
///
/// Noncopyable, so the rings have exactly one owner and are freed by `deinit` when it goes: no copy
/// can outlive them or free them twice.
///
/// Nothing here is `@usableFromInline`: a noncopyable type's `deinit` cannot be inlined into
/// fragile code (the optimizer crashed on it), and no other module needs these types.
///
/// Invariants (asserted in debug builds): `capacity` is a power of two at least 4,
/// `0 <= head < capacity`, `0 <= count <= capacity`; the `count` slots from `head` (wrapping) hold
/// initialized bodies, the others none.
struct JobQueue: ~Copyable {
    var meta: UnsafeMutablePointer<JobMeta>
    var bodies: UnsafeMutablePointer<JobBody>
    var capacity = 4
    var head = 0
    var count = 0

    init() {
        meta = .allocate(capacity: 4)
        bodies = .allocate(capacity: 4)
    }

    /// Releases the waiting bodies and the rings.
    deinit {
        var index = head
        for _ in 0..<count {
            (bodies + index).deinitialize(count: 1)
            index = index + 1 == capacity ? 0 : index + 1
        }
        meta.deallocate()
        bodies.deallocate()
    }

    @inline(__always) var isEmpty: Bool { count == 0 }

    /// The head job's metadata; only valid when not empty.
    @inline(__always) var firstMeta: JobMeta {
        assert(count > 0, "JobQueue: firstMeta of an empty lane")
        return meta[head]
    }

    @inline(__always)
    mutating func append(_ body: __owned @escaping () -> Void, _ m: JobMeta) {
        if count == capacity { grow() }
        var tail = head + count
        if tail >= capacity { tail -= capacity }
        meta[tail] = m
        (bodies + tail).initialize(to: JobBody(run: body))
        count += 1
        assertInvariants()
    }

    /// Takes the head job's body out (its metadata is `firstMeta`, read before).
    @inline(__always)
    mutating func takeFirstBody() -> () -> Void {
        precondition(count > 0, "removeFirst on an empty lane")
        let body = (bodies + head).move().run
        head = head + 1 == capacity ? 0 : head + 1
        count -= 1
        assertInvariants()
        return body
    }

    /// Doubles the rings, unrolling them so the head is at 0.
    mutating func grow() {
        assert(count == capacity, "JobQueue: grows only when full")
        let grown = capacity * 2
        let grownMeta = UnsafeMutablePointer<JobMeta>.allocate(capacity: grown)
        let grownBodies = UnsafeMutablePointer<JobBody>.allocate(capacity: grown)
        let firstPart = min(count, capacity - head)
        grownMeta.initialize(from: meta + head, count: firstPart)
        grownBodies.moveInitialize(from: bodies + head, count: firstPart)
        if firstPart < count {
            (grownMeta + firstPart).initialize(from: meta, count: count - firstPart)
            (grownBodies + firstPart).moveInitialize(from: bodies, count: count - firstPart)
        }
        meta.deallocate()
        bodies.deallocate()
        meta = grownMeta
        bodies = grownBodies
        capacity = grown
        head = 0
        assertInvariants()
    }

    /// Debug builds: the ring's indices are in range (a broken one reads or frees the wrong slot).
    @inline(__always)
    func assertInvariants() {
        assert(
            capacity >= 4 && capacity & (capacity - 1) == 0 && head >= 0 && head < capacity && count >= 0
                && count <= capacity,
            "JobQueue invariant broken: head \(head), count \(count), capacity \(capacity)")
    }
}

/// Counts the jobs posted per label on one lane, for their ordinals. Lanes carry few labels, so a
/// short inline list beats hashing; many labels spill into a dictionary. Noncopyable: the list is
/// freed by `deinit`.
///
/// Invariants (asserted in debug builds): `0 <= listed <= listLimit`, nothing spills before the
/// list is full, and an ordinal never wraps around (two jobs would share an identity).
struct OrdinalCounter: ~Copyable {
    var labels: UnsafeMutablePointer<Symbol>
    var counts: UnsafeMutablePointer<UInt32>
    var listed = 0
    var spill: [Symbol: UInt32] = [:]
    static let listLimit = 16

    init() {
        labels = .allocate(capacity: Self.listLimit)
        counts = .allocate(capacity: Self.listLimit)
    }

    deinit {
        labels.deallocate()
        counts.deallocate()
    }

    /// The ordinal of the next job with `label` (1 for the first).
    @inline(__always)
    mutating func next(_ label: Symbol) -> UInt32 {
        assert(listed >= 0 && listed <= Self.listLimit, "OrdinalCounter invariant broken: \(listed) labels listed")
        for index in 0..<listed where labels[index] == label {
            // A wrapped ordinal would give two jobs the same identity.
            assert(counts[index] < .max, "OrdinalCounter: ordinal overflow for a label")
            counts[index] &+= 1
            return counts[index]
        }
        if listed < Self.listLimit {
            assert(spill.isEmpty, "OrdinalCounter invariant broken: labels spilled before the list is full")
            labels[listed] = label
            counts[listed] = 1
            listed += 1
            return 1
        }
        let ordinal = (spill[label] ?? 0) + 1
        spill[label] = ordinal
        return ordinal
    }
}

/// The lanes of a simulation in one manually managed buffer, so that a lane's queue and counters
/// are mutated in place (no copy-on-write check, no retain per access). Noncopyable: the lanes are
/// destroyed (their queues and counters with them) and the buffer freed by `deinit`.
///
/// Invariants (asserted in debug builds): `0 <= count <= capacity`; slots `0..<count` are
/// initialized; an index is in `0..<count` (a lane index out of range reads another lane or freed
/// memory).
struct LaneTable: ~Copyable {
    var base: UnsafeMutablePointer<LaneState> = .allocate(capacity: 8)
    var count = 0
    var capacity = 8

    init() {}

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var indices: Range<Int> { 0..<count }

    // Not @inlinable: assigning through it destroys a lane, and `deinit` is not inlinable.
    @inline(__always)
    subscript(index: Int) -> LaneState {
        unsafeAddress {
            assert(index >= 0 && index < count, "LaneTable: lane index \(index) out of 0..<\(count)")
            return UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            assert(index >= 0 && index < count, "LaneTable: lane index \(index) out of 0..<\(count)")
            return base + index
        }
    }

    mutating func append(_ lane: consuming LaneState) {
        assert(count <= capacity, "LaneTable invariant broken: \(count) lanes in \(capacity) slots")
        if count == capacity {
            let grown = UnsafeMutablePointer<LaneState>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: lane)
        count += 1
    }
}
