import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// What a campaign runs, decided by its seeds alone (`Fuzzer`, `FindingCampaign` in worker processes):
/// different seeds give different schedules; the first failure does not depend on the number of jobs;
/// shards together run exactly the seeds of one machine; dfs exhausts a small space; `--time` ends a
/// campaign with no seed limit, and not before its time.
@Suite struct FuzzerCampaignTests {
    @Test func differentSeedsGiveDifferentSchedules() {
        let plan = RunPlan.probed(
            scenario: LostInputNavigation.scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
        let strategy = plan.makeStrategy()
        let digests = Set((0..<30 as Range<UInt64>).map { plan.run(seed: $0, strategy: strategy).digest })
        #expect(digests.count > 3)
    }

    /// In worker processes of the built `simrun` (as `fuzz` runs), one or two of them.
    @Test func theFirstFailureIsTheSameWhateverTheNumberOfJobs() throws {
        let plan = try BuiltinCampaigns.plan("lost-input-navigation")
        var first: [(UInt64, Verdict)] = []
        for jobs in [1, 2] {
            let directory = try makeTemporaryDirectory("simrun-jobs-\(jobs)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try BuiltinCampaigns.fuzz(plan, seeds: 0..<500, jobs: jobs, into: directory)
            let finding = try #require(result.findings.first, "jobs \(jobs) found nothing")
            first.append((finding.seed, finding.foundVerdict))
        }
        #expect(first[0] == first[1], "\(first)")
    }

    @Test func shardsTogetherRunExactlyTheSeedsOfOneMachine() {
        let plan = RunPlan.probed(scenario: CounterRace.scenario, variant: "fixed", strategy: .campaignDefault)
        func schedules(_ shard: (Int, Int)) -> Int {
            Fuzzer(plan: plan, configuration: .init(seeds: 0..<101, jobs: 1, shard: shard)).run().schedules
        }
        let whole = schedules((0, 1))
        let parts = (0..<3).map { schedules(($0, 3)) }
        #expect(whole == 101)
        #expect(parts == [34, 34, 33])
    }

    @Test func dfsExhaustsTheCounterRaceAndFindsTheLostUpdate() throws {
        let fixed = RunPlan.probed(
            scenario: CounterRace.scenario, variant: "fixed", strategy: try #require(StrategySpec(parsing: "dfs:preemptions=3")))
        let exhausted = Fuzzer(plan: fixed, configuration: .init(seeds: 0..<10_000)).run()
        #expect(exhausted.exhausted && exhausted.findings.isEmpty, "\(exhausted.schedules) schedules")
        let buggy = RunPlan.probed(scenario: CounterRace.scenario, variant: "buggy", strategy: StrategySpec(kind: .dfs))
        let found = Fuzzer(plan: buggy, configuration: .init(seeds: 0..<10_000)).run()
        #expect(!found.findings.isEmpty)
    }

    /// `--time` ends a campaign whose seeds never run out, and not before its time. Nothing here
    /// depends on how fast the machine is (the seeds only run out after 2⁶⁴ of them).
    @Test func aTimedCampaignEndsAtItsDeadline() {
        let plan = RunPlan.probed(scenario: CounterRace.scenario, variant: "fixed", strategy: .campaignDefault)
        let report = Fuzzer(plan: plan, configuration: .init(seeds: 0..<UInt64.max, seconds: 1, jobs: 1)).run()
        #expect(report.seconds >= 1, "ran until its deadline: \(report.seconds) s")
        #expect(report.schedules > 0 && report.findings.isEmpty)
    }

    /// A run that never goes quiet ends with the step-limit or time-limit verdict, and its trace says so.
    @Test(arguments: [("spinning", "step-limit"), ("ticking", "time-limit")])
    func aRunThatNeverQuiescesEndsAtItsLimitWithATrace(variant: String, oracle: String) throws {
        let directory = try makeTemporaryDirectory("limits")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try BuiltinCampaigns.plan("unruly-counter", variant: variant, in: .inProcess)
        let path = directory.appendingPathComponent("limit.simtrace").path
        let result = try Recorder.record(
            plan: plan, seed: 0, strategy: plan.makeStrategy(), strategyName: plan.strategy.description, to: path)
        #expect(result.verdict.oracle == oracle, "\(result.verdict)")
        #expect(try TraceInput(path: path).footer?.verdict == result.verdict)
    }
}
