import SimCore
import SimEngine
import SimScenarios
import Testing

/// Each built-in object check's bug is found by fuzzing and shrunk — scenario first, then schedule —
/// to the minimal scenario its documentation states; the fixed variants and the linearizable
/// ticket dispenser pass; the ticket dispenser's atomic variant fails and names the interleaving.
@Suite struct ObjectCheckShrinkTests {
    /// Each buggy check, its space, and the minimal scenario it must shrink to.
    static let bugs: [(Scenario, String, CallSpace, CallScenario)] = [
        (CacheCheck.scenario, "buggy", CacheCheck.check.callSpace, CacheCheck.minimal),
        (CounterCheck.scenario, "buggy", CounterCheck.check.callSpace, CounterCheck.minimal),
        (TokenRefresherCheck.scenario, "buggy", TokenRefresherCheck.check.callSpace, TokenRefresherCheck.minimal),
        (BoundedBufferCheck.scenario, "buggy", BoundedBufferCheck.check.callSpace, BoundedBufferCheck.minimal),
        (SemaphoreCheck.scenario, "buggy", SemaphoreCheck.check.callSpace, SemaphoreCheck.minimal),
        (TicketDispenserCheck.scenario, "atomic", TicketDispenserCheck.check.callSpace, TicketDispenserCheck.minimal),
    ]

    /// The first failure of `variant` under `pct` from seed 0 whose scenario has at least `calls`
    /// calls (so that shrinking has work to do), shrunk.
    static func shrunkFailure(_ scenario: Scenario, _ variant: String, calls: Int = 0) -> (
        seed: UInt64, outcome: Shrinker.Outcome
    )? {
        let plan = RunPlan.probed(scenario: scenario, variant: variant, strategy: StrategySpec(kind: .pct))
        let strategy = plan.makeStrategy()
        for seed in 0..<300 as Range<UInt64> {
            let result = plan.run(seed: seed, strategy: strategy)
            guard result.verdict.isFailure, let space = scenario.callSpace,
                space.scenario(from: result.tape).callCount >= calls
            else { continue }
            let target = FailureSignature(result.verdict)
            guard let outcome = Shrinker(plan: plan, seed: seed, target: target).shrink(result.tape) else { return nil }
            return (seed, outcome)
        }
        return nil
    }

    @Test(arguments: 0..<6)
    func theBugIsFoundAndShrunkToItsDocumentedMinimum(_ index: Int) throws {
        let (scenario, variant, space, minimal) = Self.bugs[index]
        // Start from a failing scenario at least two calls larger than the minimum.
        let (_, outcome) = try #require(
            Self.shrunkFailure(scenario, variant, calls: minimal.callCount + 2), "\(scenario.name) not found")
        #expect(outcome.result.verdict.isFailure)
        let shrunk = space.scenario(from: outcome.result.tape)
        #expect(shrunk.callCount == minimal.callCount, "\(scenario.name) shrank to \(shrunk)")
        // Same calls, possibly split differently between the tasks (the semaphore's three acquires).
        #expect(
            shrunk.tasks.flatMap { $0 }.sorted { $0.operation < $1.operation } == minimal.tasks.flatMap { $0 },
            "\(scenario.name) shrank to \(shrunk)")
        #expect(shrunk.prefix.isEmpty && shrunk.suffix.isEmpty)
    }

    @Test func theTwoChecksDifferOnTheTicketDispenser() throws {
        let (_, atomic) = try #require(Self.shrunkFailure(TicketDispenserCheck.scenario, "atomic"))
        #expect(atomic.result.verdict.oracle == "atomic-calls")
        #expect(atomic.result.verdict.message.contains("was interleaved at its await by call t"))
        #expect(Self.shrunkFailure(TicketDispenserCheck.scenario, "linearizable") == nil)
    }

    @Test func aShrunkTraceReplaysToTheSameTable() throws {
        let (seed, outcome) = try #require(Self.shrunkFailure(CounterCheck.scenario, "buggy"))
        let again = CounterCheck.scenario.run(
            variant: "buggy", seed: seed, strategy: ReplayStrategy(tape: outcome.result.tape))
        #expect(again.verdict == outcome.result.verdict)
        #expect(again.verdict.message.contains("increment() → 1 (alone: 2)"))
    }

    @Test func reductionKeepsToTheShapeAndStopsWhereNothingSmallerFails() {
        let space = CallSpace(shape: .standard, argumentCounts: [0, 2])
        let start = CallScenario(
            prefix: [.init(1, 1)], tasks: [[.init(1, 1), .init(0)], [.init(0)], [.init(1, 0)]], suffix: [.init(0)])
        // "Fails" while some task still calls operation 1 with argument 1.
        let reduced = space.reduce(start, failure: 0) { candidate in
            candidate.tasks.contains { $0.contains(.init(1, 1)) } ? 1 : nil
        }
        #expect(reduced.scenario == CallScenario(tasks: [[.init(1, 1)], [.init(0)]]))
        for candidate in space.smaller(than: start) { #expect(space.choices(for: candidate) != nil) }
        #expect(space.choices(for: CallScenario(tasks: [[.init(0)]])) == nil)
    }
}
