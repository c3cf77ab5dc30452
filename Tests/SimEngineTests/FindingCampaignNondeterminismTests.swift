import Foundation
import SimCore
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// A campaign in worker processes re-runs each failure's seed here and compares it with the worker's
/// run (`FindingCampaign` with children of the built `simrun`): a model whose runs depend on the
/// process is a nondeterministic finding with both behaviours' traces, never a plain failure (a seed
/// that passed here is never saved as a failure: `NondeterministicFindingTests`). `Set` order is not
/// such a model: the hash seed is pinned in every simrun process. What `fuzz` prints about it:
/// SimRunKitTests' `FuzzFindingsCommandTests`.
@Suite(.serialized) struct FindingCampaignNondeterminismTests {
    /// A model that reads the wall clock: the failing seed's re-run differs, and the first divergent
    /// event shows the clock being read.
    @Test func aWallClockModelIsANondeterministicFindingWithTheFirstDivergentEvent() throws {
        let directory = try makeTemporaryDirectory("nondet")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try BuiltinCampaigns.plan("unruly-counter", variant: "wall-clock")
        let result = try BuiltinCampaigns.fuzz(plan, seeds: 0..<20, into: directory)
        let finding = try #require(result.findings.first { $0.kind == .nondeterministic }, "\(result.findings.map(\.kind))")
        let evidence = try #require(finding.nondeterminism?.evidence, "\(String(describing: finding.problem))")
        let divergence = try #require(evidence.divergence, "two differing traces: \(evidence.traces.map(\.label))")
        #expect(divergence.first?.hasPrefix("first divergent event: #") == true, "\(divergence)")
        #expect(divergence.contains { $0.contains("clock.read") }, "the divergent event is shown: \(divergence)")
        #expect(finding.path == evidence.traces.first?.outcome.path)
    }

    /// An order drawn from the process id, stable within one process: two processes agree by chance
    /// now and then, so a few campaigns are tried; some seed's worker and re-run must disagree.
    @Test func aSeedThatRanDifferentlyInItsWorkerIsANondeterministicFinding() throws {
        let plan = try BuiltinCampaigns.plan("unruly-counter", variant: "process-order")
        var said = false
        for _ in 0..<8 where !said {
            let directory = try makeTemporaryDirectory("worker-nondet")
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try BuiltinCampaigns.fuzz(plan, seeds: 0..<20, jobs: 2, into: directory)
            #expect(result.foundSomething)
            said = result.findings.contains { $0.kind == .nondeterministic && $0.nondeterminism != nil }
        }
        #expect(said, "eight campaigns never flagged a seed whose run differed between worker and re-run")
    }

    /// Code that iterates a `Set` runs the same way in the workers and here: its lost update is a
    /// failure, never nondeterminism.
    @Test func aCampaignOverSetOrderNeverCallsItsSeedsNondeterministic() throws {
        let plan = try BuiltinCampaigns.plan("unruly-counter", variant: "set-order")
        for _ in 0..<3 {
            let directory = try makeTemporaryDirectory("pinned-hash")
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try BuiltinCampaigns.fuzz(plan, seeds: 0..<20, jobs: 2, keepGoing: true, into: directory)
            #expect(result.findings.contains { $0.kind == .failure }, "the lost update is found")
            #expect(!result.findings.contains { $0.kind == .nondeterministic }, "\(result.findings.map(\.seed))")
        }
    }
}
