import HeapModule

/// A timer scheduled on the virtual clock.
///
/// Ordered by deadline, then posting order. Posting order is unique, so the order is total: which
/// timer comes out first never depends on the heap's shape or algorithm, only on these two numbers.
@usableFromInline
struct PendingTimer: Comparable {
    @usableFromInline var deadline: Int64
    @usableFromInline var id: UInt64
    @usableFromInline var lane: Int32
    @usableFromInline var job: Job
    /// Timers of one lane that fell due at one instant share a group (0: none), released one at a
    /// time in the order the strategy chose (`Simulation.orderSameInstant`).
    @usableFromInline var group: UInt32 = 0

    @inlinable static func < (lhs: PendingTimer, rhs: PendingTimer) -> Bool {
        lhs.deadline != rhs.deadline ? lhs.deadline < rhs.deadline : lhs.job.seq < rhs.job.seq
    }

    @inlinable static func == (lhs: PendingTimer, rhs: PendingTimer) -> Bool {
        lhs.deadline == rhs.deadline && lhs.job.seq == rhs.job.seq
    }
}

/// The pending timers by (deadline, posting order), in swift-collections' `Heap`.
///
/// The one package SimCore imports besides the standard library: measured against the hand-written
/// binary heap it replaced with `simrun bench --only timers` (see BENCHMARKS.md).
@usableFromInline
struct TimerQueue {
    @usableFromInline var heap = Heap<PendingTimer>()

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { heap.isEmpty }
    @inlinable var count: Int { heap.count }
    /// The timer due first.
    @inlinable var first: PendingTimer? { heap.min }
    @inlinable var nextDeadline: Int64? { heap.min?.deadline }

    @inlinable
    mutating func insert(_ timer: PendingTimer) { heap.insert(timer) }

    @inlinable
    mutating func popFirst() -> PendingTimer? { heap.popMin() }
}
