import SimCore
import SimScenarios
import SimTestSupport
import Testing

@Suite struct CartLoginBarrierTests {
    let scenario = CartLoginBarrier.scenario

    @Test(arguments: [StrategySpec.Kind.pct, .random])
    func buggyFailsWithinAThousandSeeds(_ kind: StrategySpec.Kind) {
        let found = BoardsActionsSupport.firstFailingSeed(
            scenario, variant: "buggy", strategy: StrategySpec(kind: kind), seeds: 0..<1_000)
        #expect(found != nil, "\(kind) found no failure in 1,000 seeds")
        if let found { print("CartLoginBarrier buggy, \(kind): first failure at seed \(found.seed): \(found.verdict)") }
    }

    @Test(arguments: [StrategySpec.Kind.pct, .random])
    func fixedPassesTwoThousandSeeds(_ kind: StrategySpec.Kind) {
        let failures = BoardsActionsSupport.failures(
            scenario, variant: "fixed", strategy: StrategySpec(kind: kind), seeds: 0..<2_000)
        #expect(
            failures.count == 0, "\(kind): \(failures.count) failures, first: \(String(describing: failures.first))")
    }

    @Test func sameSeedGivesTheSameDigest() {
        for variant in ["buggy", "fixed"] {
            for seed in 0..<20 as Range<UInt64> {
                let first = scenario.run(variant: variant, seed: seed, strategy: RandomStrategy())
                let second = scenario.run(variant: variant, seed: seed, strategy: RandomStrategy())
                #expect(first.digest == second.digest, "\(variant) seed \(seed)")
                #expect(first.verdict == second.verdict)
            }
        }
    }

    @Test func fuzzingReachesEveryCoverageGoal() {
        var reached: [String] = []
        var goals: [String] = []
        for seed in 0..<300 as Range<UInt64> {
            for variant in ["buggy", "fixed"] {
                let result = scenario.run(variant: variant, seed: seed, strategy: RandomStrategy())
                goals = result.goals
                for goal in result.reachedGoals where !reached.contains(goal) { reached.append(goal) }
            }
        }
        #expect(!goals.isEmpty)
        #expect(goals.allSatisfy { reached.contains($0) }, "unreached: \(goals.filter { !reached.contains($0) })")
    }
}
