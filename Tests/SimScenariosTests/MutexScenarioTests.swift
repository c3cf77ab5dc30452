import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// A check-then-act split across two `Synchronization.Mutex.withLock` calls (issue #40): found by the
/// default campaign on carriers (`--preempt`), where every use of the program's Mutex is a scheduling
/// point (a debug build); its fix is clean; the finding replays in another process.
@Suite(.serialized) struct MutexScenarioTests {
    @Test func aMutexCheckThenActIsFoundOnCarriersAndItsFixIsClean() throws {
        let directory = try makeTemporaryDirectory("mutex-coupon")
        defer { try? FileManager.default.removeItem(at: directory) }
        // On carriers in children of `simrun`: carriers stay out of this process.
        let buggy = try ScenarioCampaigns.fuzz(
            try ScenarioCampaigns.planInChild("mutex-coupon-redeem", preempt: true),
            isolation: ScenarioCampaigns.children, into: directory)
        let finding = try #require(buggy.findings.first, "the default campaign with carriers found nothing")
        #expect(finding.verdict == .fail(oracle: "credited-once", message: "the coupon was credited 2 times"))
        #expect(finding.path?.hasSuffix("/mutex-coupon-redeem-buggy-credited-once.simtrace") == true)
        #expect(try ScenarioCampaigns.replayInChild(try #require(finding.path)) == .identical)
        let fixed = try ScenarioCampaigns.fuzz(
            try ScenarioCampaigns.planInChild("mutex-coupon-redeem", variant: "fixed", preempt: true), seeds: 0..<2000,
            isolation: ScenarioCampaigns.children, into: directory)
        #expect(fixed.findings.isEmpty, "\(fixed.findings.map(\.verdict))")
    }

    @Test func aMutexUseIsAPointOnlyOnCarriers() throws {
        let directory = try makeTemporaryDirectory("mutex-plain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let probe = try ScenarioCampaigns.planInChild("carrier-probe", variant: "synchronization-mutex", preempt: true)
        let run = try ScenarioCampaigns.recordInChild(probe, seed: 0, into: directory)
        #expect(run.verdict == .pass, "\(run.verdict)")
        let plain = try ScenarioCampaigns.fuzz(
            try ScenarioCampaigns.plan("mutex-coupon-redeem"), seeds: 0..<50, into: directory)
        #expect(
            !plain.findings.contains { $0.verdict.oracle == "credited-once" },
            "without carriers each withLock is one job's stretch: \(plain.findings.map(\.verdict))")
    }
}
