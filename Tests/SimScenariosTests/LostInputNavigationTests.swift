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

    @Test func bothRacesAreExplored() {
        var reached = Set<String>()
        let strategy = RandomStrategy()
        for seed in 0..<200 {
            reached.formUnion(scenario.run(variant: "fixed", seed: UInt64(seed), strategy: strategy).reachedGoals)
        }
        #expect(reached.isSuperset(of: ["navigated", "blur before tap", "tap before blur"]))
    }
}
