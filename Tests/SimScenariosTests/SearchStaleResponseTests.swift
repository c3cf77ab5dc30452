import SimCore
import SimScenarios
import Testing

@Suite struct SearchStaleResponseTests {
    let scenario = SearchStaleResponse.scenario
    static let buggyVariants = ["buggy", "buggy-cancel", "checked-cancel-in-flight"]

    /// The first seed below `limit` at which `variant` fails under `kind`, with its result.
    func firstFailure(
        _ variant: String, _ kind: StrategySpec.Kind, limit: UInt64 = 1_000
    ) -> (seed: UInt64, result: RunResult)? {
        let strategy = StrategySpec(kind: kind).makeStrategy()
        for seed in 0..<limit {
            let result = scenario.run(variant: variant, seed: seed, strategy: strategy)
            if result.verdict.isFailure { return (seed, result) }
        }
        return nil
    }

    @Test(arguments: buggyVariants)
    func buggyVariantsFailWithinAThousandSeeds(variant: String) {
        for kind in [StrategySpec.Kind.pct, .random] {
            let found = firstFailure(variant, kind)
            #expect(found != nil, "\(variant) under \(kind) passed 1000 seeds")
            guard let found else { continue }
            #expect(found.result.verdict.oracle == "results-match-latest-query", "\(found.result.verdict)")
            #expect(found.result.verdict.message.contains("the field shows \"swi\""))
        }
    }

    @Test func theFIFOBaselineDoesNotShowTheBug() {
        // The order a TestStore with a test clock would give: every variant passes, which is why the
        // bug survives ordinary tests.
        for variant in scenario.variants.map(\.name) {
            #expect(scenario.run(variant: variant, seed: 0, strategy: FIFOStrategy()).verdict == .pass)
        }
    }

    @Test func aFailingScheduleReplaysToTheSameFailure() {
        guard let found = firstFailure("buggy", .random) else {
            Issue.record("no failure to replay")
            return
        }
        let replayed = scenario.run(
            variant: "buggy", seed: found.seed, strategy: ReplayStrategy(tape: found.result.tape))
        #expect(replayed.verdict == found.result.verdict)
        #expect(replayed.digest == found.result.digest)
    }
}
