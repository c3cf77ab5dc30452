import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// `surw` (the selective walk as published) and `rff` (reads-from fuzzing) learn from run to run, so
/// their campaign runs in order in one child (`ChildJob.inOrderCampaign`): it is the same in two
/// processes, and says what the strategy learned from, or why it could not. SCTBench's programs are
/// the built `simrun`'s (they read shared cells); the child is given their plan by name.
@Suite struct InOrderCampaignTests {
    /// The in-order campaign of `scenario` with `strategy` over `seeds`, keeping going, in a child of
    /// `simrun`, planned there first.
    private func campaign(_ scenario: String, _ strategy: String, seeds: Range<UInt64>) throws
        -> ChildReply.InOrderSummary
    {
        let directory = try makeTemporaryDirectory("in-order")
        defer { try? FileManager.default.removeItem(at: directory) }
        var plan = RunPlan.Descriptor(
            scenario: scenario, variant: "buggy", strategy: try #require(StrategySpec(parsing: strategy)),
            estimatedSteps: 1, noise: 0, carriers: .off)
        let launcher = SimrunChildren.launcher
        for case .planned(let steps, let goals) in try launcher.run(.plan(plan)).replies {
            plan.estimatedSteps = max(steps, 1)
            plan.goals = goals
        }
        let run = try launcher.run(
            .inOrderCampaign(
                .init(
                    plan: plan, seeds: seeds, milliseconds: nil, keepGoing: true,
                    marker: directory.appendingPathComponent("marker").path, findings: directory.path)))
        for case .campaign(let summary) in run.replies { return summary }
        Issue.record("\(scenario) \(strategy): no campaign reply: \(run.replies) \(run.stderr)")
        throw SimEngineError(.failed, "no campaign")
    }

    @Test(arguments: ["surw", "rff"])
    func aLearningCampaignIsTheSameInTwoProcesses(_ strategy: String) throws {
        let first = try campaign("reorder_10_bad", strategy, seeds: 0..<400)
        let second = try campaign("reorder_10_bad", strategy, seeds: 0..<400)
        let outcome = { (summary: ChildReply.InOrderSummary) in
            (summary.findings.map { "\($0.seed) \($0.verdict)" }, summary.failures, summary.learning)
        }
        #expect(outcome(first) == outcome(second))
        #expect(!first.findings.isEmpty && first.schedules == 400)
        #expect(first.learning?.hasPrefix(strategy) == true, "\(String(describing: first.learning))")
    }

    @Test func theCampaignSaysWhatItLearnedFrom() throws {
        let rff = try campaign("twostage_bad", "rff", seeds: 0..<50)
        #expect(rff.learning?.hasPrefix("rff learned from") == true, "\(String(describing: rff.learning))")
        let surw = try campaign("twostage_bad", "surw", seeds: 0..<50)
        #expect(surw.learning?.hasPrefix("surw selected from") == true, "\(String(describing: surw.learning))")
    }

    /// The async scenarios keep their state in actors, not shared cells: the strategies still run
    /// there (as partial order sampling and a random-priority walk) and say they cannot learn.
    @Test(arguments: ["surw", "rff"])
    func withoutSharedCellsTheStrategySaysItCannotLearn(_ strategy: String) throws {
        let plan = RunPlan.probed(
            scenario: CounterRace.scenario, variant: "buggy-async", strategy: try #require(StrategySpec(parsing: strategy)))
        let report = Fuzzer(plan: plan, configuration: .init(seeds: 0..<200, keepGoing: true)).run()
        #expect(report.schedules == 200)
        #expect(report.learning?.hasPrefix("\(strategy) cannot") == true, "\(String(describing: report.learning))")
    }
}
