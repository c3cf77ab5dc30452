import SimCore
import SimEngine
import Testing

@Suite struct DelayEstimateTests {
    /// A fault fifo never injects doubles the run: a retry of ten more jobs.
    private static let retrying = Scenario(name: "retrying", summary: "", variants: [.init("buggy", "")]) { sim, _ in
        sim.post(on: "main", "request") {
            guard sim.buggify("net.drop") else { return }
            for _ in 0..<10 { sim.post(on: "main", "retry") {} }
        }
        for _ in 0..<5 { sim.post(on: "main", "work") {} }
    }

    @Test func delayLearnsRunsLongerThanTheFifoProbeWithinTheLimit() {
        let plan = RunPlan(scenario: Self.retrying, variant: "buggy", strategy: StrategySpec(kind: .delay))
        #expect(plan.estimatedSteps == 6, "fifo never drops the request")
        let estimate = plan.explorationEstimate()
        #expect(estimate == 16, "a random probe dropped it: the retries count")
        #expect(estimate <= Self.retrying.limits.maxSteps)
        let delay = plan.makeStrategy() as? DelayBoundedStrategy
        #expect(delay?.estimatedSteps == 16)
        // The estimate is the plan's alone: another plan object (another worker) gets the same.
        let again = RunPlan(scenario: Self.retrying, variant: "buggy", strategy: StrategySpec(kind: .delay))
        #expect(again.explorationEstimate() == estimate)
    }
}
