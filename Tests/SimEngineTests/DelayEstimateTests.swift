import SimCore
import SimEngine
import Testing

/// `RunPlan`'s fifo probe sets the `delay` strategy's horizons: some seeds reach past the probe's length.
@Suite struct DelayEstimateTests {
    /// A fault fifo never injects doubles the run: a retry of ten more jobs.
    private static let retrying = Scenario(name: "retrying", summary: "", variants: [.init("buggy", "")]) { sim, _ in
        sim.post(on: "main", "request") {
            guard sim.buggify("net.drop") else { return }
            for _ in 0..<10 { sim.post(on: "main", "retry") {} }
        }
        for _ in 0..<5 { sim.post(on: "main", "work") {} }
    }

    @Test func delaySpreadsSomeSeedsOverRunsLongerThanTheFifoProbeWithinTheLimit() throws {
        let plan = RunPlan.probed(scenario: Self.retrying, variant: "buggy", strategy: StrategySpec(kind: .delay))
        #expect(plan.estimatedSteps == 6, "fifo never drops the request")
        let delay = try #require(plan.makeStrategy() as? DelayBoundedStrategy)
        // Seeds take the probe's length times 1, 2 and 4 in turn: the retry path (16 steps) is covered.
        #expect((0..<6).map { delay.horizon(for: $0) } == [6, 12, 24, 6, 12, 24])
        #expect(delay.maxHorizon == Self.retrying.limits.maxSteps)
        delay.maxHorizon = 10
        #expect(delay.horizon(for: 2) == 10, "never past the step limit")
        // Some seed's delay lands on a retry step: a delay there is a departure on the retry path.
        let retried = (UInt64(0)..<200).contains { seed in
            let result = plan.run(seed: seed, strategy: plan.makeStrategy())
            return result.steps > 6 && result.deviations > 0
        }
        #expect(retried)
    }
}
