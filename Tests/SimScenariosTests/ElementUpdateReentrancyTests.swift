import SimCore
import SimModels
import SimScenarios
import SimTestSupport
import Testing

@Suite struct ElementUpdateReentrancyTests {
    let scenario = ElementUpdateReentrancy.scenario

    @Test func fifoOrderPassesEvenWhenBuggy() {
        // In posting order the refresh lands after the removal pass and repairs the tree.
        let result = scenario.run(variant: "buggy", seed: 0, strategy: FIFOStrategy())
        #expect(result.verdict == .pass)
    }

}

/// Prints where each strategy first finds each bug, and how often (run with `--filter ScenarioSeedReport`).
@Suite struct ScenarioSeedReport {
    @Test func firstFailingSeeds() {
        for scenario in [LostInputNavigation.scenario, ElementUpdateReentrancy.scenario] {
            for kind in [StrategySpec.Kind.fifo, .random, .pct] {
                let strategy = StrategySpec(kind: kind).makeStrategy()
                var failing: [UInt64] = []
                for seed: UInt64 in 0..<1000
                where scenario.run(variant: "buggy", seed: seed, strategy: strategy).verdict.isFailure {
                    failing.append(seed)
                }
                let first = failing.first.map { "first at seed \($0)" } ?? "none"
                print("SEED-REPORT \(scenario.name) buggy \(kind): \(first), \(failing.count)/1000 seeds fail")
            }
        }
    }
}
