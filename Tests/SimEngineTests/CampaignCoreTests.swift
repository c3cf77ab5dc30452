import SimCore
import SimScenarios
import Testing

@testable import SimEngine

/// The campaign core driven by worker threads: the lowest failing seed whatever the number of
/// workers, shards whose tallies merge into the unsharded one, and goal tallies that do not depend
/// on how the seeds were split.
@Suite struct CampaignCoreTests {
    let plan = RunPlan.probed(scenario: LostInputNavigation.scenario, variant: "buggy", strategy: StrategySpec(kind: .pct))

    /// The first failing seed, found one seed at a time with no campaign machinery at all.
    func firstFailingSeed(in seeds: Range<UInt64>) -> UInt64? {
        let strategy = plan.makeStrategy()
        return seeds.first { plan.run(seed: $0, strategy: strategy).verdict.isFailure }
    }

    @Test func theLowestFailingSeedIsFoundWhateverTheNumberOfWorkers() throws {
        // Start past the first failures so that several chunks are claimed before one fails.
        let seeds: Range<UInt64> = 1_000..<3_000
        let expected = try #require(firstFailingSeed(in: seeds))
        for jobs in [1, 2, 3] {
            let report = Fuzzer(plan: plan, configuration: .init(seeds: seeds, jobs: jobs)).run()
            #expect(report.findings.map(\.seed) == [expected], "jobs \(jobs)")
            #expect(report.failures == 1, "a campaign that stops at its first failure counts one")
            #expect(report.findings.first?.verdict.isFailure == true)
        }
    }

    @Test func shardTalliesMergeIntoTheTallyOfOneMachine() {
        let seeds: Range<UInt64> = 0..<600
        let whole = tally(SeedSpace(seeds: seeds), workers: 2)
        var runs = 0
        var merged = FindingsTable<RunEvidence>()
        var goals = [Int](repeating: 0, count: whole.goalCounts.count)
        for shard in 0..<3 {
            let part = tally(SeedSpace(seeds: seeds, shardIndex: shard, shardCount: 3), workers: 1 + shard % 2)
            runs += part.runs
            merged.merge(part.findings)
            goals = zip(goals, part.goalCounts).map { $0 + $1 }
        }
        #expect(runs == 600 && whole.runs == 600)
        #expect(merged.entries == whole.findings.entries)
        #expect(goals == whole.goalCounts)
        #expect(whole.findings.failingRuns > 0 && whole.goalCounts.contains { $0 > 0 })
    }

    @Test func keepGoingReportsEveryFailingRunAndTheSameGoalsWhateverTheWorkers() {
        let seeds: Range<UInt64> = 0..<300
        let one = Fuzzer(plan: plan, configuration: .init(seeds: seeds, jobs: 1, keepGoing: true)).run()
        let three = Fuzzer(plan: plan, configuration: .init(seeds: seeds, jobs: 3, keepGoing: true)).run()
        #expect(one.schedules == 300 && three.schedules == 300)
        #expect(one.failures == three.failures)
        #expect(one.findings.map(\.seed) == three.findings.map(\.seed))
        #expect(one.goalCounts == three.goalCounts)
        #expect(one.goals == plan.goals())
    }

    /// Runs every seed of `space` with `keepGoing` on a `ThreadBoard`, one thread per worker in turn.
    private func tally(_ space: SeedSpace, workers: Int) -> CampaignTally {
        let board = ThreadBoard(workers: workers, goals: plan.goals().count)
        let worker = CampaignWorker(plan: plan, space: space, keepGoing: true, deadline: nil)
        for w in 0..<workers { worker.run(on: board, worker: w) }
        return board.tally()
    }
}

/// A `--time` campaign ends at its deadline; one whose deadline has already passed runs nothing,
/// which pins the check without depending on how fast the machine is.
@Suite struct CampaignDeadlineTests {
    @Test func aCampaignPastItsDeadlineRunsNoSeed() {
        let plan = RunPlan.probed(scenario: CounterRace.scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
        let space = SeedSpace(seeds: 0..<UInt64.max, bounded: false)
        let board = ThreadBoard(workers: 1, goals: plan.goals().count)
        CampaignWorker(plan: plan, space: space, keepGoing: true, deadline: ContinuousClock.now)
            .run(on: board, worker: 0)
        #expect(board.tally().runs == 0)
        let report = Fuzzer(plan: plan, configuration: .init(seeds: 0..<UInt64.max, seconds: 1e-9, jobs: 2)).run()
        #expect(report.schedules == 0 && report.findings.isEmpty)
    }
}
