import Foundation
import SimCapture
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// The GCD scenarios (issue #31) under the engine: each bug found by the default campaign, its saved
/// trace replaying identical as the failure in another process, each fix clean (20,000 seeds:
/// `tools/gcd-fixed-campaign.sh`; a few hundred here) and running the same in two more processes.
@Suite(.enabled(if: DispatchCapturing.isActive, "GCD runs under the scheduler on Linux only for now"))
struct GCDScenarioTests {
    static let scenarios = ["gcd-image-loader", "gcd-debounce", "gcd-semaphore-deadlock"]

    @Test(arguments: scenarios)
    func theDefaultCampaignFindsTheBugAndTheFixIsClean(_ name: String) throws {
        let directory = try makeTemporaryDirectory("gcd")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buggy = try ScenarioCampaigns.fuzz(try ScenarioCampaigns.plan(name), into: directory)
        let finding = try #require(buggy.findings.first, "\(name): the default campaign found nothing")
        #expect(finding.kind == .failure && finding.verdict.isFailure && finding.problem == nil, "\(finding.verdict)")
        #expect(finding.replay == .identical)
        let path = try #require(finding.path)
        #expect(try ScenarioCampaigns.replayInChild(path) == .identical, "the trace replays identical")
        #expect(try TraceInput(path: path).footer?.verdict.isFailure == true, "and records the failure")

        let fixed = try ScenarioCampaigns.plan(name, variant: "fixed")
        let clean = try ScenarioCampaigns.fuzz(fixed, seeds: 0..<500, into: directory)
        #expect(clean.findings.isEmpty && clean.report.schedules == 500, "\(name) fixed: \(clean.findings.map(\.verdict))")
        let check = try ScenarioCampaigns.determinism(fixed, seeds: 0..<500)
        #expect(check.checked == 500 && check.differences.isEmpty && check.incomplete == nil, "\(check.differences)")
    }

    @Test func aBuggyRunIsIdenticalInTwoMoreProcesses() throws {
        let check = try ScenarioCampaigns.determinism(try ScenarioCampaigns.plan("gcd-debounce"), seeds: 0..<40)
        #expect(check.checked == 40 && check.incomplete == nil, "\(check.incomplete ?? "")")
        #expect(check.differences.isEmpty, "\(check.differences)")
    }

    @Test func theDeadlockNamesWhoWaitsOnWhat() throws {
        let plan = try ScenarioCampaigns.plan("gcd-semaphore-deadlock", strategy: .plainOrder)
        let run = plan.run(seed: 0, strategy: plan.makeStrategy())
        #expect(
            run.verdict
                == .deadlock(
                    "every lane blocked: main waits for DispatchSemaphore#1 (in dispatch.async, in "
                        + "GCDSemaphoreDeadlock.ThumbnailStore.thumbnail(for:)); suspended tasks: none (the run started no Swift task)"
                ), "\(run.verdict)")
    }
}
