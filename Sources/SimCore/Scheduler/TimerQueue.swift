/// A timer scheduled on the virtual clock.
@usableFromInline
struct PendingTimer {
    @usableFromInline var deadline: Int64
    @usableFromInline var id: UInt64
    @usableFromInline var lane: Int32
    @usableFromInline var job: Job

    @inlinable func precedes(_ other: PendingTimer) -> Bool {
        deadline != other.deadline ? deadline < other.deadline : job.seq < other.job.seq
    }
}

/// A binary min-heap of timers by (deadline, posting order).
@usableFromInline
struct TimerQueue {
    @usableFromInline var heap: [PendingTimer] = []

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { heap.isEmpty }
    @inlinable var count: Int { heap.count }
    @inlinable var nextDeadline: Int64? { heap.first?.deadline }

    @usableFromInline
    mutating func insert(_ timer: PendingTimer) {
        heap.append(timer)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    @usableFromInline
    mutating func popFirst() -> PendingTimer? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var best = parent
            if left < heap.count && heap[left].precedes(heap[best]) { best = left }
            if right < heap.count && heap[right].precedes(heap[best]) { best = right }
            if best == parent { break }
            heap.swapAt(parent, best)
            parent = best
        }
        return top
    }
}
