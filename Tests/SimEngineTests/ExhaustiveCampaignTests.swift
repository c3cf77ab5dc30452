import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// Triage of #28 defect 7: dfs with its default bound (2 preemptions) exhausts
/// blueprint-reentrant-update-crash without the crash, which needs 3 of dfs's preemptions (its
/// non-fifo count is 2): the campaign is exhausted and finds nothing (what `fuzz` then says the
/// proof covers is checked in `FuzzCommandTests`). Run in children: the crash traps.
@Suite struct ExhaustiveCampaignTests {
    @Test func dfsBoundTwoExhaustsTheBlueprintCrashWithoutFindingIt() throws {
        let directory = try makeTemporaryDirectory("dfs-bound")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(
            scenario: BlueprintReentrantUpdateCrash.scenario, variant: "buggy", strategy: StrategySpec(kind: .dfs))
        let result = try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: 0..<1000),
            options: .init(directory: directory.path, isolation: SimrunChildren.isolation)
        ).run()
        #expect(result.report.exhausted, "\(result.report.schedules) schedules")
        #expect(result.findings.isEmpty, "\(result.findings.map(\.verdict))")
        #expect(result.report.exhaustedRounds.map(\.bound) == [0, 1, 2])
    }
}
