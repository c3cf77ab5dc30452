/// Decides whether a concurrent history is linearizable against a sequential model: whether some
/// order of its calls, respecting real time (a call that returned before another was invoked comes
/// first), gives every call the result it had.
///
/// Wing & Gong's search as Lowe and Porcupine made it fast: the history is a linked list of
/// invocation and response entries in real-time order; the search linearizes a call whose invocation
/// comes before every pending response (lifting both entries out of the list), backtracks at a
/// response whose call is still pending, and memoises every (set of linearized calls, model state)
/// it has reached, so no configuration is explored twice. The memo is bounded by `maxConfigurations`:
/// past it the answer is `undecided`, never "linearizable".
///
/// ```swift
/// let checker = LinearizabilityChecker<Int, RegisterOp, Int>(initial: 0) { value, op in
///     switch op { case .write(let x): (x, x); case .read: (value, value) }
/// }
/// checker.check(history)  // .linearizable(order:) or .notLinearizable
/// ```
///
/// Complexity: linear in the history for histories with little overlap; exponential in the number of
/// mutually concurrent calls at worst, which the memo bounds in practice.
public struct LinearizabilityChecker<State: Hashable, Input: Sendable, Output: Sendable & Equatable> {
    /// The model's state before any call.
    public var initial: State
    /// The model: a call's result and the next state, or nil when the model cannot answer yet (an
    /// asynchronous model still to be run: the check stops with `modelNeeded`).
    public var step: (State, Input) -> (output: Output, next: State)?
    /// The most (linearized set, state) configurations the search keeps before it gives up.
    public var maxConfigurations: Int

    /// A checker for `step` from `initial`, keeping at most `maxConfigurations` configurations.
    public init(
        initial: State, maxConfigurations: Int = 1_000_000,
        step: @escaping (State, Input) -> (output: Output, next: State)?
    ) {
        self.initial = initial
        self.step = step
        self.maxConfigurations = maxConfigurations
    }

    /// What a check decided.
    public enum Outcome {
        /// Every call's result is explained by this order (indices into the history's calls).
        case linearizable(order: [Int])
        /// No order respecting real time explains the results. `longest` is the longest prefix of
        /// an order that the search could explain (indices into the calls), for the report.
        case notLinearizable(longest: [Int])
        /// The memo reached `maxConfigurations` before the search ended: nothing is claimed.
        case undecided(configurations: Int)
        /// The model has no answer yet for `input` applied in `state`.
        case modelNeeded(state: State, input: Input)
    }

    /// How much work the last check did (for the benchmark and the memo's bound).
    public struct Effort: Sendable {
        /// Model steps taken.
        public var steps = 0
        /// Configurations memoised.
        public var configurations = 0
        /// No work yet.
        public init() {}
    }

    /// Decides `history` (see the type's summary).
    public func check(_ history: CallHistory<Input, Output>) -> Outcome {
        var effort = Effort()
        return check(history, effort: &effort)
    }

    /// Decides `history`, reporting the work done in `effort`.
    public func check(_ history: CallHistory<Input, Output>, effort: inout Effort) -> Outcome {
        let calls = history.calls
        let count = calls.count
        if count == 0 { return .linearizable(order: []) }
        var list = EntryList(history)
        var memo = Set<Configuration>()
        var linearized = CallSet(count: count)
        var state = initial
        // (call entry lifted, the state before it)
        var stack: [(entry: Int, state: State)] = []
        var longest: [Int] = []
        var entry = list.first
        while entry != EntryList.end {
            let call = list.call(of: entry)
            if list.isInvocation(entry) {
                guard let (output, next) = step(state, calls[call].input) else {
                    return .modelNeeded(state: state, input: calls[call].input)
                }
                effort.steps += 1
                if output == calls[call].output {
                    // In place: the set is copied only when the memo keeps it (a new configuration).
                    linearized.insert(call)
                    if memo.insert(Configuration(calls: linearized, state: next)).inserted {
                        effort.configurations = memo.count
                        if memo.count > maxConfigurations { return .undecided(configurations: memo.count) }
                        stack.append((entry, state))
                        state = next
                        list.lift(entry)
                        entry = list.first
                        continue
                    }
                    linearized.remove(call)
                }
                entry = list.next(entry)
            } else {
                // A response whose call is not linearized yet: every order tried so far is wrong.
                if stack.count > longest.count { longest = stack.map { list.call(of: $0.entry) } }
                guard let (lifted, previous) = stack.popLast() else { return .notLinearizable(longest: longest) }
                state = previous
                linearized.remove(list.call(of: lifted))
                list.unlift(lifted)
                entry = list.next(lifted)
            }
        }
        return .linearizable(order: stack.map { list.call(of: $0.entry) })
    }

    /// A point of the search: which calls are linearized, and the model's state after them.
    private struct Configuration: Hashable {
        var calls: CallSet
        var state: State
    }
}

/// A set of call indices, as bits (the memo's key, so compact), hashed incrementally: the hash is the
/// XOR of a fixed 64-bit mix of each member (Zobrist hashing), so hashing costs the same for 10 calls
/// as for 10,000.
struct CallSet: Hashable {
    private var words: [UInt64]
    private var digest: UInt64 = 0

    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

    mutating func insert(_ index: Int) {
        words[index >> 6] |= 1 << UInt64(index & 63)
        digest ^= Self.mix(index)
    }

    mutating func remove(_ index: Int) {
        words[index >> 6] &= ~(1 << UInt64(index & 63))
        digest ^= Self.mix(index)
    }

    func contains(_ index: Int) -> Bool { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }

    static func == (lhs: CallSet, rhs: CallSet) -> Bool { lhs.digest == rhs.digest && lhs.words == rhs.words }
    func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    /// SplitMix64's finalizer: a fixed, well-spread 64-bit value per index.
    private static func mix(_ index: Int) -> UInt64 {
        var z = UInt64(index) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The history's invocation and response entries in real-time order, as a doubly linked list that
/// the search lifts calls out of and puts them back into (Porcupine's `lift`/`unlift`).
struct EntryList {
    static let end = -1
    /// Entry `2i` is call `i`'s invocation, `2i + 1` its response.
    private var next: [Int]
    private var previous: [Int]
    private var head: Int

    init<Input, Output>(_ history: CallHistory<Input, Output>) {
        let count = history.calls.count * 2
        let order = (0..<count).sorted { position($0, in: history) < position($1, in: history) }
        next = Array(repeating: Self.end, count: count)
        previous = Array(repeating: Self.end, count: count)
        head = order.first ?? Self.end
        for (rank, entry) in order.enumerated() {
            previous[entry] = rank == 0 ? Self.end : order[rank - 1]
            next[entry] = rank + 1 < order.count ? order[rank + 1] : Self.end
        }
    }

    var first: Int { head }
    func next(_ entry: Int) -> Int { next[entry] }
    func isInvocation(_ entry: Int) -> Bool { entry & 1 == 0 }
    func call(of entry: Int) -> Int { entry >> 1 }

    /// Takes a call's invocation and response out of the list.
    mutating func lift(_ invocation: Int) {
        remove(invocation)
        remove(invocation + 1)
    }

    /// Puts them back where they were (the reverse of `lift`, in reverse order).
    mutating func unlift(_ invocation: Int) {
        restore(invocation + 1)
        restore(invocation)
    }

    private mutating func remove(_ entry: Int) {
        let before = previous[entry]
        let after = next[entry]
        if before == Self.end { head = after } else { next[before] = after }
        if after != Self.end { previous[after] = before }
    }

    /// Re-links `entry` between its old neighbours, which still point past it.
    private mutating func restore(_ entry: Int) {
        let before = previous[entry]
        let after = next[entry]
        if before == Self.end { head = entry } else { next[before] = entry }
        if after != Self.end { previous[after] = entry }
    }
}

private func position<Input, Output>(_ entry: Int, in history: CallHistory<Input, Output>) -> Int {
    let call = history.calls[entry >> 1]
    return entry & 1 == 0 ? call.invoked : call.returned
}
