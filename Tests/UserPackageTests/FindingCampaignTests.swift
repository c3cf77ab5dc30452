import Foundation
import SimCore
import SimEngine
import SimTestSupport
import SimTesting
import Testing

/// SimEngine's campaign API from a user's package (public API only, no `@testable`): a campaign
/// that runs seeds and ends in saved, shrunk, re-checked findings, heard through an observer.
@Suite struct FindingCampaignTests {
    /// What an observer heard, in order.
    final class Heard: FindingCampaignObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        private(set) var saved: [SavedFinding] = []

        var log: [String] { lock.withLock { events } }

        func progress(_ progress: CampaignProgress) { lock.withLock { events.append("progress") } }
        func schedulesFinished(_ report: Fuzzer.Report) {
            lock.withLock { events.append("finished \(report.schedules)") }
        }
        func saved(_ finding: SavedFinding) {
            lock.withLock {
                events.append("saved \(finding.seed)")
                saved.append(finding)
            }
        }
    }

    @Test func aCampaignSavesShrinksAndRechecksItsFinding() throws {
        let directory = try makeTemporaryDirectory("finding-campaign")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(scenario: PlayerCheckout.scenario, variant: "buggy", strategy: StrategySpec(kind: .pct))
        let campaign = FindingCampaign(
            plan: plan, configuration: .init(seeds: 0..<200, jobs: 2),
            options: .init(directory: directory.path + "/findings"))
        // A test process is no binary built on SimRun.main: the runs stay on threads here.
        #expect(!campaign.runsInWorkerProcesses)
        let heard = Heard()
        let result = try campaign.run(observer: heard)
        #expect(result.foundSomething && !result.interrupted)
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1)
        #expect(
            heard.log.filter { $0 != "progress" } == ["finished \(result.report.schedules)", "saved \(finding.seed)"])
        #expect(finding.kind == .failure)
        #expect(finding.foundVerdict.oracle == "order-has-promo")
        #expect(FailureSignature(finding.foundVerdict).matches(finding.verdict))
        #expect(finding.problem == nil && finding.warnings.isEmpty)
        #expect(finding.replay == .identical)
        let path = try #require(finding.path)
        #expect(path == directory.path + "/findings/user-player-checkout-buggy-order-has-promo.simtrace")
        guard case .shrunk(let shrink)? = finding.shrink else {
            Issue.record("not shrunk: \(String(describing: finding.shrink))")
            return
        }
        #expect(shrink.after.nonFifo <= shrink.before.nonFifo)
        #expect(finding.decisions.saved == shrink.after.decisions)
        // The first failure is the lowest seed whatever the jobs: a second campaign on one thread agrees.
        let alone = try FindingCampaign(
            plan: plan, configuration: .init(seeds: 0..<200, jobs: 1),
            options: .init(directory: directory.path + "/alone", shrink: false)
        ).run()
        #expect(alone.findings.map(\.seed) == [finding.seed])
        #expect(alone.findings.first?.shrink == nil)
        // The saved trace is a corpus entry SimTesting replays with the same verdict.
        let corpus = TraceCorpus(directory: directory.path + "/findings", scenarios: [PlayerCheckout.scenario])
        #expect(corpus.traces.count == 1)
        for trace in corpus.traces { #expect(corpus.replay(trace)) }
    }

    @Test func aCampaignThatFindsNothingSavesNothing() throws {
        let directory = try makeTemporaryDirectory("finding-campaign-pass")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(scenario: PlayerCheckout.scenario, variant: "fixed", strategy: StrategySpec(kind: .random))
        let result = try FindingCampaign(
            plan: plan, configuration: .init(seeds: 0..<40), options: .init(directory: directory.path + "/none")
        ).run()
        #expect(!result.foundSomething)
        #expect(result.report.schedules == 40)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/none"))
    }
}
