/// A concurrent history: calls with their invocation and response in one real-time order, the input
/// of a linearizability check.
///
/// Every call has completed (the scenarios simrun checks run to quiescence; a call that never returns
/// is a `pending` verdict, decided before any history is checked). Call `i`'s `invoked` and
/// `returned` are positions in the run's order of events, so `a` precedes `b` in real time exactly
/// when `a.returned < b.invoked`.
public struct CallHistory<Input, Output>: Sendable where Input: Sendable, Output: Sendable & Equatable {
    /// One call: what was asked, what came back, and when.
    public struct Call: Sendable {
        /// The task that made it, as the caller numbers tasks (for tables and messages only).
        public var task: Int
        /// What was called: the operation and its argument.
        public var input: Input
        /// What it returned.
        public var output: Output
        /// Its invocation's position in the history's event order.
        public var invoked: Int
        /// Its response's position; greater than `invoked`.
        public var returned: Int

        /// A completed call; `returned` must follow `invoked`.
        public init(task: Int, input: Input, output: Output, invoked: Int, returned: Int) {
            precondition(returned > invoked, "a call returns after it is invoked")
            self.task = task
            self.input = input
            self.output = output
            self.invoked = invoked
            self.returned = returned
        }
    }

    /// The calls, in any order; a check refers to them by index.
    public var calls: [Call]

    /// A history of `calls`; positions must be distinct across all invocations and responses.
    public init(calls: [Call]) { self.calls = calls }

    /// True when call `a` returned before call `b` was invoked (so every linearization puts `a` first).
    public func precedes(_ a: Int, _ b: Int) -> Bool { calls[a].returned < calls[b].invoked }

    /// The calls in the order they were invoked.
    public var invocationOrder: [Int] { calls.indices.sorted { calls[$0].invoked < calls[$1].invoked } }
}
