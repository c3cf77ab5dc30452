/// The per-call atomicity check: every call returns what it would return had it run without
/// interruption, in the order the calls were invoked.
///
/// A call into an actor starts running when it is invoked (its first part is the caller's hop onto
/// the actor, and actor queues are FIFO), so the only way another call can change its result is by
/// running while it is suspended at an `await` inside it. Comparing with one sequential run in
/// invocation order therefore names the reentrancy directly: "call X was interleaved at its await by
/// call Y". It is stronger than linearizability — invocation order respects real time, so a history
/// that passes it is linearizable — and cheaper: one sequential run, no search. A linearizable
/// history can still fail it (a call that awaits before touching state and so takes effect after a
/// later call): the two checks differ, by design.
public enum AtomicityCheck {
    /// The first call whose result differs from the uninterrupted run.
    public struct Violation: Sendable, Equatable {
        /// The call whose result changed (an index into the history's calls).
        public var call: Int
        /// A call that ran while `call` was suspended (invoked after it, before it returned), or nil
        /// when none did (an earlier interleaving changed state without changing its own result).
        public var interleavedBy: Int?
        /// The earlier call whose own interleaving left the state that changed `call`'s result, when
        /// `interleavedBy` is nil.
        public var earlierInterleaved: Int?
    }

    /// Compares each call's result with `uninterrupted[k]`, the result of the k-th call in invocation
    /// order when the calls run one at a time in that order; nil when every result matches.
    public static func firstViolation<Input, Output>(
        in history: CallHistory<Input, Output>, uninterrupted: [Output]
    ) -> Violation? {
        let order = history.invocationOrder
        precondition(uninterrupted.count == order.count, "one uninterrupted result per call")
        for (rank, call) in order.enumerated() where history.calls[call].output != uninterrupted[rank] {
            if let other = interleaver(of: call, in: history, order: order) {
                return Violation(call: call, interleavedBy: other, earlierInterleaved: nil)
            }
            let earlier = order[..<rank].last { interleaver(of: $0, in: history, order: order) != nil }
            return Violation(call: call, interleavedBy: nil, earlierInterleaved: earlier)
        }
        return nil
    }

    /// The first call invoked while `call` was running (after its invocation, before its response).
    static func interleaver<Input, Output>(of call: Int, in history: CallHistory<Input, Output>, order: [Int]) -> Int? {
        let span = history.calls[call]
        return order.first { other in
            other != call && history.calls[other].invoked > span.invoked && history.calls[other].invoked < span.returned
        }
    }
}
