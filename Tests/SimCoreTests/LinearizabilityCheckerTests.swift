import Testing

@testable import SimCore

/// The linearizability search accepts exactly the histories some real-time-respecting order
/// explains, keeps its memo within the bound it is given, and says `undecided` past it.
@Suite struct LinearizabilityCheckerTests {
    enum Register: Sendable {
        case write(Int)
        case read
    }

    /// A register: a write returns its value, a read the value held.
    static var register: LinearizabilityChecker<Int, Register, Int> {
        LinearizabilityChecker<Int, Register, Int>(initial: 0) { value, op in
            switch op {
            case .write(let x): (x, x)
            case .read: (value, value)
            }
        }
    }

    typealias Call = CallHistory<Register, Int>.Call

    @Test func aReadOfTheOldValueAfterTheWriteReturnedIsRejected() {
        // write(1) returns at 2; a read invoked at 3 still sees 0: no order explains it.
        let history = CallHistory(calls: [
            Call(task: 1, input: .write(1), output: 1, invoked: 1, returned: 2),
            Call(task: 2, input: .read, output: 0, invoked: 3, returned: 4),
        ])
        guard case .notLinearizable(let longest) = Self.register.check(history) else {
            Issue.record("accepted a read of a value overwritten before it began")
            return
        }
        #expect(longest == [0])
    }

    @Test func aReadOverlappingTheWriteMayTakeEitherValue() {
        for seen in [0, 1] {
            let history = CallHistory(calls: [
                Call(task: 1, input: .write(1), output: 1, invoked: 1, returned: 4),
                Call(task: 2, input: .read, output: seen, invoked: 2, returned: 3),
            ])
            guard case .linearizable(let order) = Self.register.check(history) else {
                Issue.record("rejected an overlapping read of \(seen)")
                continue
            }
            #expect(order == (seen == 0 ? [1, 0] : [0, 1]))
        }
    }

    @Test func aReadCannotSeeAValueNoWriteGave() {
        let history = CallHistory(calls: [
            Call(task: 1, input: .write(1), output: 1, invoked: 1, returned: 4),
            Call(task: 2, input: .read, output: 2, invoked: 2, returned: 3),
        ])
        guard case .notLinearizable = Self.register.check(history) else {
            Issue.record("accepted a read of 2")
            return
        }
    }

    /// Two reads that disagree about the order of two concurrent writes (the classic non-linearizable
    /// history that every pairwise check accepts).
    @Test func readsThatDisagreeOnTheOrderOfTwoWritesAreRejected() {
        let history = CallHistory(calls: [
            Call(task: 1, input: .write(1), output: 1, invoked: 1, returned: 10),
            Call(task: 2, input: .write(2), output: 2, invoked: 2, returned: 11),
            Call(task: 3, input: .read, output: 1, invoked: 12, returned: 13),
            Call(task: 3, input: .read, output: 2, invoked: 14, returned: 15),
            Call(task: 4, input: .read, output: 1, invoked: 16, returned: 17),
        ])
        guard case .notLinearizable = Self.register.check(history) else {
            Issue.record("accepted reads that see 1, then 2, then 1 after both writes returned")
            return
        }
    }

    /// Many concurrent writes and one impossible read: the search would visit every subset of the
    /// writes; with a bound it stops there and claims nothing.
    @Test func theMemoStaysWithinItsBoundAndThenSaysUndecided() {
        var calls = (0..<10).map {
            Call(task: $0, input: .write($0 + 1), output: $0 + 1, invoked: $0 + 1, returned: 100 + $0)
        }
        calls.append(Call(task: 99, input: .read, output: 1_000, invoked: 200, returned: 201))
        let history = CallHistory(calls: calls)
        var bounded = Self.register
        bounded.maxConfigurations = 500
        var effort = LinearizabilityChecker<Int, Register, Int>.Effort()
        guard case .undecided(let configurations) = bounded.check(history, effort: &effort) else {
            Issue.record("answered without the memo reaching its bound")
            return
        }
        #expect(configurations == 501 && effort.configurations <= 501)
        // Unbounded, the memo still keeps the work to one visit per (set of writes, last value):
        // far below the 10! orders a search without it would try.
        var effortAll = LinearizabilityChecker<Int, Register, Int>.Effort()
        guard case .notLinearizable = Self.register.check(history, effort: &effortAll) else {
            Issue.record("accepted a read of a value never written")
            return
        }
        #expect(effortAll.configurations <= 10 * (1 << 10))
    }

    /// A long history of mostly sequential calls is checked in about one step per call.
    @Test func aLongSequentialHistoryTakesAboutOneStepPerCall() {
        var calls: [Call] = []
        var value = 0
        for index in 0..<1_000 {
            let op: Register = index % 3 == 0 ? .write(index) : .read
            if case .write(let x) = op { value = x }
            calls.append(
                Call(task: index % 2, input: op, output: value, invoked: 2 * index + 1, returned: 2 * index + 2))
        }
        var effort = LinearizabilityChecker<Int, Register, Int>.Effort()
        guard case .linearizable(let order) = Self.register.check(CallHistory(calls: calls), effort: &effort) else {
            Issue.record("rejected a sequential register history")
            return
        }
        #expect(order == Array(0..<1_000))
        #expect(effort.steps <= 1_000 && effort.configurations == 1_000)
    }

    @Test func aThrownErrorIsAResultComparedLikeAnyOther() {
        struct Empty: Error, Equatable {}
        struct Other: Error {}
        #expect(CallResult.threw(Empty()) == .threw(Empty()))
        #expect(CallResult.threw(Empty()) != .threw(Other()))
        #expect(CallResult.threw(Empty()) != .value(0))
        #expect(CallResult.value(Optional(3)) == .value(Optional(3)))
        #expect(CallResult.value(3) != .value(Int64(3)))
    }
}

/// The per-call atomicity check compares with one uninterrupted run in invocation order, and names
/// the call that ran inside the one whose result changed.
@Suite struct AtomicityCheckTests {
    typealias Call = CallHistory<String, Int>.Call

    @Test func aCallThatAwaitedFirstAndTookEffectLastIsLinearizableButNotAtomic() {
        // t1's take() is invoked first, awaits, and t2's take() runs whole in between: t1 gets 2.
        let history = CallHistory(calls: [
            Call(task: 1, input: "take", output: 2, invoked: 1, returned: 4),
            Call(task: 2, input: "take", output: 1, invoked: 2, returned: 3),
        ])
        let violation = AtomicityCheck.firstViolation(in: history, uninterrupted: [1, 2])
        #expect(violation == .init(call: 0, interleavedBy: 1, earlierInterleaved: nil))
        var counter = 0
        let checker = LinearizabilityChecker<Int, String, Int>(initial: 0) { value, _ in
            counter += 1
            return (value + 1, value + 1)
        }
        guard case .linearizable(let order) = checker.check(history) else {
            Issue.record("rejected a history explained by t2 then t1")
            return
        }
        #expect(order == [1, 0])
    }

    @Test func resultsThatMatchTheUninterruptedRunPass() {
        let history = CallHistory(calls: [
            Call(task: 1, input: "take", output: 1, invoked: 1, returned: 4),
            Call(task: 2, input: "take", output: 2, invoked: 2, returned: 3),
        ])
        #expect(AtomicityCheck.firstViolation(in: history, uninterrupted: [1, 2]) == nil)
    }
}

/// Scenarios come from choices: the same seed gives the same scenario, sizes stay in the shape, and
/// all-zero choices give the smallest, simplest scenario (what shrinking aims for).
@Suite struct CallScenarioTests {
    struct Zero: ScenarioChoices {
        mutating func choose(_ count: Int, _ site: String) -> Int { 0 }
    }

    @Test func theSameSeedGivesTheSameScenarioAndSizesStayInTheShape() {
        var seen = Set<CallScenario>()
        for seed in 0..<200 as Range<UInt64> {
            var first = SeededChoices(seed: seed)
            var second = SeededChoices(seed: seed)
            let a = CallScenario.generate(shape: .standard, argumentCounts: [0, 3], choices: &first)
            let b = CallScenario.generate(shape: .standard, argumentCounts: [0, 3], choices: &second)
            #expect(a == b)
            #expect((2...3).contains(a.tasks.count) && a.prefix.count <= 1 && a.suffix.count <= 1)
            #expect(a.tasks.allSatisfy { (1...3).contains($0.count) })
            let all = a.prefix + a.tasks.flatMap { $0 } + a.suffix
            #expect(all.allSatisfy { $0.operation == 0 ? $0.argument == 0 : (0..<3).contains($0.argument) })
            seen.insert(a)
        }
        #expect(seen.count > 100)
    }

    @Test func allZeroChoicesGiveTheSmallestScenario() {
        var zero = Zero()
        let scenario = CallScenario.generate(shape: .standard, argumentCounts: [2, 0], choices: &zero)
        #expect(scenario == CallScenario(tasks: [[.init(0, 0)], [.init(0, 0)]]))
        #expect(scenario.callCount == 2)
    }
}

/// The search agrees with brute force (every permutation that respects real time) on thousands of
/// small random queue histories, half of them with a result made wrong.
@Suite struct LinearizabilityBruteForceTests {
    enum Op: Hashable, Sendable {
        case enqueue(Int)
        case dequeue
    }

    static func step(_ queue: [Int], _ op: Op) -> (output: Int, next: [Int]) {
        switch op {
        case .enqueue(let x): (0, queue + [x])
        case .dequeue: queue.isEmpty ? (-1, queue) : (queue[0], Array(queue.dropFirst()))
        }
    }

    static func bruteForce(_ history: CallHistory<Op, Int>) -> Bool {
        func extend(_ done: [Int], _ queue: [Int]) -> Bool {
            if done.count == history.calls.count { return true }
            for call in history.calls.indices where !done.contains(call) {
                // Every call that returned before this one was invoked must already be placed.
                let blocked = history.calls.indices.contains {
                    !done.contains($0) && $0 != call && history.precedes($0, call)
                }
                if blocked { continue }
                let (output, next) = step(queue, history.calls[call].input)
                if output == history.calls[call].output && extend(done + [call], next) { return true }
            }
            return false
        }
        return extend([], [])
    }

    @Test func theSearchAgreesWithBruteForce() {
        var random = SplitMix64(seed: 25)
        let checker = LinearizabilityChecker<[Int], Op, Int>(initial: []) { Self.step($0, $1) }
        var linearizable = 0
        for _ in 0..<3_000 {
            let count = 1 + random.below(6)
            // Random spans on a small time line; positions made distinct by sorting the entries.
            var spans: [(Int, Int)] = []
            for _ in 0..<count {
                let start = random.below(10)
                spans.append((start, start + 1 + random.below(6)))
            }
            let entries = (0..<count).flatMap { [($0, true), ($0, false)] }.sorted { a, b in
                let ta = a.1 ? spans[a.0].0 : spans[a.0].1
                let tb = b.1 ? spans[b.0].0 : spans[b.0].1
                return (ta, a.1 ? 0 : 1, a.0) < (tb, b.1 ? 0 : 1, b.0)
            }
            var invoked = Array(repeating: 0, count: count)
            var returned = Array(repeating: 0, count: count)
            for (position, entry) in entries.enumerated() {
                if entry.1 { invoked[entry.0] = position + 1 } else { returned[entry.0] = position + 1 }
            }
            let calls = (0..<count).map { index -> CallHistory<Op, Int>.Call in
                let op: Op = random.below(2) == 0 ? .enqueue(index + 1) : .dequeue
                let output = op == .dequeue ? random.below(count + 2) - 1 : 0
                return .init(task: index, input: op, output: output, invoked: invoked[index], returned: returned[index])
            }
            let history = CallHistory(calls: calls)
            let expected = Self.bruteForce(history)
            if expected { linearizable += 1 }
            switch checker.check(history) {
            case .linearizable(let order):
                #expect(expected, "accepted \(calls.map { ($0.input, $0.output, $0.invoked, $0.returned) })")
                #expect(order.sorted() == Array(0..<count))
            case .notLinearizable:
                #expect(!expected, "rejected \(calls.map { ($0.input, $0.output, $0.invoked, $0.returned) })")
            default: Issue.record("no answer")
            }
        }
        #expect(linearizable > 300)
    }
}
