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

    @Test func randomFindsTheLostRerenderWithinAThousandSeeds() throws {
        let found = try #require(
            PlayerElementsProbe.firstFailure(
                scenario, variant: "buggy", strategy: .init(kind: .random), seeds: 0..<1000))
        #expect(found.result.verdict.oracle == "view-tree-matches-element-tree")
    }

    @Test func pctFindsTheLostRerender() throws {
        let found = try #require(
            PlayerElementsProbe.firstFailure(scenario, variant: "buggy", strategy: .init(kind: .pct), seeds: 0..<1000))
        #expect(found.result.verdict.oracle == "view-tree-matches-element-tree")
    }

    @Test(arguments: [StrategySpec.Kind.random, .pct])
    func fixedVariantPassesTwoThousandSeeds(_ kind: StrategySpec.Kind) {
        let failure = PlayerElementsProbe.firstFailure(
            scenario, variant: "fixed", strategy: .init(kind: kind), seeds: 0..<2000)
        #expect(
            failure == nil, "fixed failed at seed \(failure?.seed ?? 0): \(failure?.result.verdict.description ?? "")")
    }

    @Test func sameSeedGivesSameDigest() {
        for variant in ["buggy", "fixed"] {
            for seed: UInt64 in [3, 11, 99] {
                let first = scenario.run(variant: variant, seed: seed, strategy: RandomStrategy())
                let second = scenario.run(variant: variant, seed: seed, strategy: RandomStrategy())
                #expect(first.digest == second.digest)
                #expect(first.tape == second.tape)
                #expect(first.verdict == second.verdict)
            }
        }
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
