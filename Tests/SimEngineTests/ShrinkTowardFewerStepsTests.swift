import SimCore
import SimEngine
import SimTestSupport
import Testing

/// After ddmin keeps the departures a failure needs, the shrinker varies each kept one toward a
/// shorter run with the same failure (its documentation: "then the remaining ones are varied toward
/// a shorter run"): of two values that both fail, the one whose run takes fewer steps is kept.
@Suite struct ShrinkTowardFewerStepsTests {
    /// `size` 0 passes; 1 fails after five more jobs; 2 fails with no more. Every run departs at
    /// `size` (value 1, the longer failure).
    static let plan: RunPlan = {
        let scenario = Scenario(
            name: "shorter-failure", summary: "two values fail, one in fewer steps", variants: [.init("only", "")]
        ) { sim, _ in
            let size = ValueBox(0)
            sim.post(on: "main", "draw") {
                size.value = sim.choose(3, "size")
                if size.value == 1 {
                    for index in 0..<5 { sim.post(on: "main", "extra \(index)") {} }
                }
            }
            sim.atEnd("size") { size.value == 0 ? nil : "size \(size.value)" }
        }
        return RunPlan.probed(scenario: scenario, variant: "only", strategy: StrategySpec(kind: .random))
    }()

    @Test func aKeptDepartureIsVariedToTheValueWhoseRunIsShortest() throws {
        let found = Self.plan.run(seed: 3, strategy: ShrinkMinimalityTests.DepartEverywhere())
        #expect(found.verdict.isFailure && found.deviations == 1)
        let outcome = try #require(
            Shrinker(plan: Self.plan, seed: 3, target: FailureSignature(found.verdict)).shrink(found.tape))
        let size = try #require(outcome.tape.decisions.first { $0.kind == .choose })
        #expect(size.chosen == 2, "the longer failure (value \(size.chosen)) was kept")
        #expect(outcome.result.steps < found.steps, "\(outcome.result.steps) steps, found in \(found.steps)")
        #expect(outcome.result.deviations == 1)
    }
}
