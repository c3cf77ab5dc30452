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

    @Test func fixedPassesTwoThousandSeedsOfRandomAndPCT() {
        var reached = Set<String>()
        for kind in [StrategySpec.Kind.random, .pct] {
            let strategy = StrategySpec(kind: kind).makeStrategy()
            for seed in UInt64(0)..<2_000 {
                let result = scenario.run(variant: "fixed", seed: seed, strategy: strategy)
                if result.verdict.isFailure {
                    Issue.record("fixed failed under \(kind) at seed \(seed): \(result.verdict)")
                    return
                }
                reached.formUnion(result.reachedGoals)
            }
        }
        // The runs covered what matters: bursts, missed cancels, stale responses arriving and ignored.
        let goals = scenario.run(variant: "fixed", seed: 0, strategy: FIFOStrategy()).goals
        #expect(Set(goals) == reached, "goals never reached: \(Set(goals).subtracting(reached))")
    }

    @Test func theFIFOBaselineDoesNotShowTheBug() {
        // The order a TestStore with a test clock would give: every variant passes, which is why the
        // bug survives ordinary tests.
        for variant in scenario.variants.map(\.name) {
            #expect(scenario.run(variant: variant, seed: 0, strategy: FIFOStrategy()).verdict == .pass)
        }
    }

    @Test func theSameSeedGivesTheSameRun() {
        for variant in scenario.variants.map(\.name) {
            for kind in [StrategySpec.Kind.random, .pct] {
                for seed in UInt64(0)..<20 {
                    let first = scenario.run(
                        variant: variant, seed: seed, strategy: StrategySpec(kind: kind).makeStrategy())
                    let second = scenario.run(
                        variant: variant, seed: seed, strategy: StrategySpec(kind: kind).makeStrategy())
                    #expect(first.digest == second.digest, "\(variant) \(kind) seed \(seed)")
                    #expect(first.tape == second.tape)
                    #expect(first.verdict == second.verdict)
                }
            }
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
