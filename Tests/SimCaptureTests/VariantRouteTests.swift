import SimCapture
import SimCore
import Testing

/// A variant may need another route than its scenario: a fix that hops to `@MainActor` where the
/// buggy code does not needs the executor factory only on that variant.
@Suite struct VariantRouteTests {
    private let scenario = Scenario.async(
        name: "route-per-variant", summary: "a fix that needs the main actor",
        variants: [
            .init("buggy", "plain tasks"),
            .init("fixed", "hops to @MainActor", concurrency: .executorFactory),
        ],
        concurrency: .eitherRoute
    ) { _, _ in }

    @Test func eachVariantNeedsItsOwnRouteOrTheScenarios() {
        #expect(scenario.concurrency == .eitherRoute)
        #expect(scenario.concurrency(of: "buggy") == .eitherRoute)
        #expect(scenario.concurrency(of: "fixed") == .executorFactory)
        #expect(scenario.concurrency(of: "no-such-variant") == .eitherRoute)
    }

    @Test func aVariantThatNeedsTheFactoryRunsWhereTheFactoryIs() {
        // In this test process the load-time constructor installs the factory when it can be first;
        // where it could not, the variant that needs it fails with the route's reason, never passes.
        let result = scenario.run(variant: "fixed", seed: 1, strategy: RandomStrategy())
        if ExecutorCapture.route.capturesMainActor {
            #expect(!result.verdict.isFailure, "\(result.verdict)")
        } else {
            #expect(result.verdict.isFailure)
            #expect(!scenario.run(variant: "buggy", seed: 1, strategy: RandomStrategy()).verdict.isFailure)
        }
    }
}
