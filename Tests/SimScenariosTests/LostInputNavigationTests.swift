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

    /// The wipe comes from navigation validation (player-ui/player `core/player/src/player.ts`:
    /// `skipTransition` → `validateView` → `currentView.update`), not from the next view.
    @Test func theTextIsWipedByTheBlockedNavigationsUpdateOfTheCurrentView() throws {
        let strategy = PCTStrategy(depth: 3, estimatedSteps: 10)
        let seed = try #require(
            (0..<50 as Range<UInt64>).first {
                scenario.run(variant: "buggy", seed: $0, strategy: strategy).verdict.isFailure
            })
        let sink = MemorySink()
        _ = scenario.run(variant: "buggy", seed: seed, strategy: strategy, sink: sink)
        let lines = PlayerElementsProbe.lines(
            sink, only: ["validation.navigation", "flow.skipped", "flow.transition", "view.update"])
        #expect(
            lines == [
                "flow.transition start", "view.update form", "validation.navigation form", "flow.skipped next",
                "view.update form",
            ])
        let wipe = try #require(PlayerElementsProbe.events(sink, "input.sink").last)
        #expect(wipe.fields["update"] == "validation" && wipe.fields["lostTyping"] == "true")
    }
}
