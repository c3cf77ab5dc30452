import SimBenchmarks
import SimCore
import Testing

@testable import SimEngine

/// A learning strategy's campaign runs in order, one strategy object from run to run, however many
/// jobs are asked for: its first failure on an SCTBench program (seed, verdict, tape) is the same
/// with 1 job and with 3.
@Suite struct LearningStrategyCampaignTests {
    /// The first failure of `strategy` on `reorder_4_bad` within 3,000 schedules.
    private func firstFailure(_ strategy: String, jobs: Int) throws -> Fuzzer.Finding {
        let scenario = try #require(SCTBench.scenarios.first { $0.name == "reorder_4_bad" })
        let plan = RunPlan.probed(
            scenario: scenario, variant: scenario.variants[0].name, strategy: try #require(StrategySpec(parsing: strategy)))
        let report = Fuzzer(plan: plan, configuration: .init(seeds: 0..<3000, jobs: jobs)).run()
        return try #require(report.findings.first, "\(strategy) found nothing in 3000 schedules")
    }

    @Test(arguments: ["pos", "surw", "nsurw", "rff", "coverage", "portfolio"])
    func theFirstFailureIsTheSameWhateverTheJobs(_ strategy: String) throws {
        let alone = try firstFailure(strategy, jobs: 1)
        let three = try firstFailure(strategy, jobs: 3)
        #expect(three.seed == alone.seed && three.verdict == alone.verdict, "\(strategy)")
        #expect(three.tape == alone.tape, "\(strategy): the same schedule")
    }
}
