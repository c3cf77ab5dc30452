import Testing

@testable import SimCore

/// The timer queue gives timers back by deadline, then posting order, whatever order they were set
/// in: the order a run sees never depends on the heap behind it.
@Suite struct TimerQueueTests {
    @Test func timersComeOutByDeadlineThenPostingOrder() {
        var random = SplitMix64(seed: 15)
        var queue = TimerQueue()
        var expected: [(Int64, UInt64)] = []
        for seq in 1...2_000 {
            // Few distinct deadlines, so that many timers share one and posting order decides.
            let deadline = Int64(random.below(40))
            let job = Job(body: {}, label: .empty, ordinal: 1, seq: UInt64(seq), cause: 0)
            queue.insert(PendingTimer(deadline: deadline, id: UInt64(seq), lane: 0, job: job))
            expected.append((deadline, UInt64(seq)))
            if seq % 7 == 0, let first = queue.popFirst() {
                // Interleave pops with inserts: the smallest so far must come out.
                let smallest = expected.indices.min { expected[$0] < expected[$1] }!
                #expect(first.deadline == expected[smallest].0 && first.job.seq == expected[smallest].1)
                expected.remove(at: smallest)
            }
        }
        expected.sort { $0 < $1 }
        var popped: [(Int64, UInt64)] = []
        while let timer = queue.popFirst() { popped.append((timer.deadline, timer.job.seq)) }
        #expect(popped.map { $0.0 } == expected.map { $0.0 })
        #expect(popped.map { $0.1 } == expected.map { $0.1 })
        #expect(queue.isEmpty && queue.first == nil)
    }
}
