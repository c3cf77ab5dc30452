import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// The search aimed at an inverted lock order is the campaign's way to turn "both orders were taken"
/// into a deadlock. When a run of the campaign already deadlocked, the evidence is already a finding:
/// the potential deadlock is still reported with both orders' traces, and no aimed search runs.
@Suite struct AimedLockOrderSearchTests {
    @Test func noSearchIsAimedWhenTheCampaignAlreadyDeadlocked() throws {
        let directory = try makeTemporaryDirectory("aimed-search")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(
            scenario: SharedDependencyDeadlock.scenario, variant: "buggy", strategy: StrategySpec(kind: .random),
            carriers: .preemptLocks)
        // Going on after the first failure: passing runs take both orders, others deadlock.
        var configuration = Fuzzer.Configuration(seeds: 0..<40, jobs: 1)
        configuration.keepGoing = true
        let result = try FindingCampaign(
            plan: plan, configuration: configuration,
            options: .init(directory: directory.path, shrink: false, isolation: .inProcess)
        ).run()
        let deadlocks = result.findings.filter {
            if case .deadlock = $0.verdict { return true } else { return false }
        }
        #expect(deadlocks.count == 1, "\(result.findings.map(\.verdict))")
        let potential = try #require(result.potentialDeadlocks.first, "both orders were taken in passing runs")
        #expect(potential.traces.count == 2 && potential.problem == nil, "\(potential)")
        #expect(potential.aimedSchedules == 0, "a search was aimed although a run deadlocked: \(potential)")
        #expect(potential.aimedDeadlockSeed == nil)
    }
}
