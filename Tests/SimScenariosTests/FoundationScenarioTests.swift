import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// The constructs that used to pass silently (issue #40) under the engine: a Foundation Timer on the
/// main run loop, a Thread hopping back to main (on carriers) and a reused `OperationQueue` are found
/// by the default campaign and their fixes are clean; a Thread on the one-thread path fails the run
/// instead of passing.
@Suite(.serialized) struct FoundationScenarioTests {
    /// The default campaign (unshrunk) finds `expected` in the buggy variant; 2,000 seeds of the fix pass.
    private func foundAndFixed(_ name: String, preempt: Bool = false, expected: Verdict) throws {
        let directory = try makeTemporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        // On carriers in children of `simrun`: carriers and real threads stay out of this process.
        let isolation: Isolation = preempt ? ScenarioCampaigns.children : .inProcess
        let plan = { (variant: String) throws -> RunPlan in
            preempt
                ? try ScenarioCampaigns.planInChild(name, variant: variant, preempt: true)
                : try ScenarioCampaigns.plan(name, variant: variant)
        }
        let buggy = try ScenarioCampaigns.fuzz(try plan("buggy"), shrink: false, isolation: isolation, into: directory)
        let finding = try #require(buggy.findings.first, "\(name): the default campaign found nothing")
        #expect(finding.verdict == expected)
        let fixed = try ScenarioCampaigns.fuzz(try plan("fixed"), seeds: 0..<2000, isolation: isolation, into: directory)
        #expect(fixed.findings.isEmpty, "\(name) fixed: \(fixed.findings.map(\.verdict))")
    }

    @Test func aRunLoopTimerRaceIsFoundAndItsFixIsClean() throws {
        try foundAndFixed(
            "timer-draft-resurrection",
            expected: .fail(oracle: "sent-message-not-a-draft", message: "the drafts hold \"Hello\", which was sent"))
    }

    @Test func aThreadRaceIsFoundOnCarriersAndItsFixIsClean() throws {
        try foundAndFixed(
            "thread-avatar-decode", preempt: true,
            expected: .fail(oracle: "avatar-matches-profile", message: "the screen shows bob with avatar(alice)"))
    }

    /// The queue's operations, the hop back to main and its timer are all captured on the one-thread path.
    @Test func aReusedOperationQueueRaceIsFoundAndItsFixIsClean() throws {
        try foundAndFixed(
            "operation-queue-search",
            expected: .fail(oracle: "results-match-query", message: "the field shows \"swift\" but the list shows results(sw)"))
    }

    /// In a child of `simrun`: the thread that escapes runs for real, outside any run.
    @Test func aThreadOnTheOneThreadPathIsAFindingNotAPass() throws {
        let directory = try makeTemporaryDirectory("thread-escape")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try ScenarioCampaigns.planInChild("thread-avatar-decode", variant: "fixed")
        let run = try ScenarioCampaigns.recordInChild(plan, seed: 0, into: directory)
        #expect(run.verdict.oracle == "stays-in-simulation", "\(run.verdict)")
        #expect(
            run.verdict.message.hasPrefix(
                "work escaped the simulation: a thread started in ProfileScreen.open(_:) runs outside the one-thread scheduler"
            ), "\(run.verdict)")
    }
}
