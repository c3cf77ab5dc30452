import SimCore
import SimTestSupport
import SimTesting
import Testing

/// A user's package, from the outside: scenarios written with each of the five models (public API
/// only), explored with SimTesting, and the saved failure replayed as a corpus.
@Suite struct UserPackageTests {
    static let passing = [
        BlueprintRows.scenario, TCASheet.scenario, BoardyFetch.scenario, NativeBlocksTap.scenario,
        PlayerCheckout.scenario,
    ]

    @Test(arguments: passing.map(\.name))
    func everyModelsScenarioPassesExploration(_ name: String) throws {
        let scenario = try #require(Self.passing.first { $0.name == name })
        let variant = scenario.hasVariant("fixed") ? "fixed" : scenario.defaultVariant
        let exploration = explore(scenario, variant: variant, strategy: "random", seeds: 0..<50)
        #expect(exploration.failure == nil)
        #expect(exploration.schedules == 50)
    }

    @Test func thePlayerBugIsFoundSavedAndReplayedAsACorpus() throws {
        let directory = try makeTemporaryDirectory("user-package").path
        withKnownIssue {
            explore(
                PlayerCheckout.scenario, variant: "buggy", strategy: "pct", seeds: 0..<200, failureDirectory: directory)
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("order-has-promo")
        }
        let corpus = TraceCorpus(directory: directory, scenarios: Self.passing)
        #expect(corpus.traces.map(\.name) == ["user-player-checkout-buggy-order-has-promo.simtrace"])
        for trace in corpus.traces {
            #expect(corpus.replay(trace))
            #expect(corpus.replayOnFixed(trace))
        }
    }
}
