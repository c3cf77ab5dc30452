import SimCore
import SimModels
import SimScenarios
import SimTestSupport
import Testing

@Suite struct LostInputNavigationTests {
    let scenario = LostInputNavigation.scenario

    @Test func fifoOrderPassesEvenWhenBuggy() {
        // The order a TestStore would give (blur, then tap) hides the bug: why a scheduler is needed.
        let result = scenario.run(variant: "buggy", seed: 0, strategy: FIFOStrategy())
        #expect(result.verdict == .pass)
    }

    @Test func pctFindsTheLostInputWithinTwentySeeds() throws {
        let found = try #require(
            PlayerElementsProbe.firstFailure(scenario, variant: "buggy", strategy: .init(kind: .pct), seeds: 0..<20))
        #expect(["typed-text-kept", "binding-holds-typed-text"].contains(found.result.verdict.oracle))
    }

    @Test func randomFindsTheLostInputWithinAThousandSeeds() throws {
        let found = try #require(
            PlayerElementsProbe.firstFailure(
                scenario, variant: "buggy", strategy: .init(kind: .random), seeds: 0..<1000))
        #expect(found.result.verdict.oracle == "typed-text-kept")
        #expect(found.result.verdict.message.contains("'Ada'"))
    }

    @Test(arguments: [StrategySpec.Kind.random, .pct])
    func fixedVariantPassesTwoThousandSeeds(_ kind: StrategySpec.Kind) {
        let failure = PlayerElementsProbe.firstFailure(
            scenario, variant: "fixed", strategy: .init(kind: kind), seeds: 0..<2000)
        #expect(
            failure == nil, "fixed failed at seed \(failure?.seed ?? 0): \(failure?.result.verdict.description ?? "")")
    }

    @Test func bothRacesAreExplored() {
        var reached = Set<String>()
        let strategy = RandomStrategy()
        for seed in 0..<200 {
            reached.formUnion(scenario.run(variant: "fixed", seed: UInt64(seed), strategy: strategy).reachedGoals)
        }
        #expect(reached.isSuperset(of: ["navigated", "blur before tap", "tap before blur"]))
    }

    @Test func sameSeedGivesSameDigest() {
        for variant in ["buggy", "fixed"] {
            for seed: UInt64 in [1, 7, 42] {
                let first = scenario.run(variant: variant, seed: seed, strategy: RandomStrategy())
                let second = scenario.run(variant: variant, seed: seed, strategy: RandomStrategy())
                #expect(first.digest == second.digest)
                #expect(first.tape == second.tape)
                #expect(first.verdict == second.verdict)
            }
        }
    }
}
