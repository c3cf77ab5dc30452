import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// Runs compared across processes (`DeterminismCampaign`, `NondeterminismEvidence`, two recordings
/// of one seed in children of the built `simrun`): a deterministic scenario gives each seed the same
/// digest in every process, this one's included; a model that reads real time or draws from the
/// process id differs, and the difference is explained by two saved traces and the first event where
/// they part. Swift's hash seed is pinned in every simrun process, so `Set` order is not such a
/// difference. What `fuzz --check-determinism` and `run --check-determinism` print about it:
/// SimRunKitTests' `CheckDeterminismCommandTests`.
@Suite(.serialized) struct DeterminismCampaignTests {
    /// `seeds` of `plan` run in two more processes and compared.
    private func check(_ plan: RunPlan, _ seeds: DeterminismCampaign.Seeds) throws -> DeterminismCampaign.Report {
        try DeterminismCampaign(recording: try BuiltinCampaigns.recording(plan)).run(seeds)
    }

    @Test func aDeterministicScenarioIsCheckedSeedBySeed() throws {
        let debounce = try BuiltinCampaigns.plan("search-debounce-task", variant: "fixed")
        let everyFourth = try check(debounce, .init(start: 0, stride: 4, count: 10))
        #expect(everyFourth.checked == 10 && everyFourth.differences.isEmpty && everyFourth.incomplete == nil)
        let double = try BuiltinCampaigns.plan("double-tap-submit", variant: "fixed")
        let every = try check(double, .init(start: 0, stride: 1, count: 30))
        #expect(every.checked == 30 && every.differences.isEmpty && every.incomplete == nil)
    }

    /// search-stale-response runs its effects as async tasks on the simulation's executor, sleeping
    /// on SimClock. Each seed's digest is the same in two children and in this process.
    @Test(arguments: ["counter-race", "lost-input-navigation", "search-stale-response"])
    func theSameSeedGivesTheSameDigestInEveryProcess(_ scenario: String) throws {
        let plan = try BuiltinCampaigns.plan(scenario, strategy: "random")
        let report = try check(plan, .init(start: 11, stride: 1, count: 1))
        #expect(report.checked == 1 && report.differences.isEmpty, "\(report.differences)")
        let recorded = try BuiltinCampaigns.recording(plan).record(
            seed: 11, to: try makeTemporaryDirectory("same-digest").appendingPathComponent("r.simtrace").path)
        #expect(recorded.digest == plan.run(seed: 11, strategy: plan.makeStrategy()).digest)
    }

    /// Two async tasks racing on an actor across `await`s: each seed's interleaving is the same in two
    /// processes, and different seeds give different interleavings (the lost update or not).
    @Test func asyncTasksInterleaveBySeedTheSameWayInEveryProcess() throws {
        let plan = try BuiltinCampaigns.plan("counter-race", variant: "buggy-async", strategy: "random")
        let report = try check(plan, .init(start: 0, stride: 1, count: 4))
        #expect(report.checked == 4 && report.differences.isEmpty, "\(report.differences)")
        let strategy = plan.makeStrategy()
        let digests = Set((0..<4 as Range<UInt64>).map { plan.run(seed: $0, strategy: strategy).digest })
        #expect(digests.count > 1)
        let failed = Set((0..<60 as Range<UInt64>).map { plan.run(seed: $0, strategy: strategy).verdict.isFailure })
        #expect(failed == [false, true], "some seeds lose the update, others do not")
    }

    /// Every seed of a model that reads the wall clock differs; one is explained with both traces
    /// (named for the seed and what they are) and the first event where they part, and nothing of the
    /// recordings is left beside them.
    @Test func differencesAreExplainedWithBothTracesAndWhereTheyPart() throws {
        let plan = try BuiltinCampaigns.plan("unruly-counter", variant: "wall-clock", strategy: "fifo")
        let report = try check(plan, .init(start: 0, stride: 1, count: 4))
        #expect(report.checked == 4 && report.differences.map(\.seed) == [0, 1, 2, 3], "\(report.differences)")
        let directory = try makeTemporaryDirectory("determinism-differs")
        defer { try? FileManager.default.removeItem(at: directory) }
        let difference = try #require(report.differences.first { $0.seed == 1 })
        let evidence = try NondeterminismEvidence.gather(
            seed: 1, firstDigest: difference.first.digest, recording: try BuiltinCampaigns.recording(plan),
            directory: directory.path, stem: "unruly-counter-wall-clock-seed1-nondeterministic",
            labels: ("first", "second"))
        #expect(evidence.traces.map(\.label).contains("second"), "\(evidence.traces.map(\.label))")
        let divergence = try #require(evidence.divergence, "two differing traces are compared")
        #expect(divergence.first?.hasPrefix("first divergent event: #") == true, "\(divergence)")
        let saved = try BuiltinCampaigns.files(in: directory)
        #expect(saved.contains("unruly-counter-wall-clock-seed1-nondeterministic-second.simtrace"), "\(saved)")
        #expect(!saved.contains { $0.hasPrefix(".") }, "no recording left behind: \(saved)")
    }

    /// One seed recorded in two processes (`run --check-determinism`): the same events for a
    /// deterministic model; the first divergent event for one that reads the wall clock, and for one
    /// whose order follows the process id (some pairs of processes agree by chance).
    @Test func twoRecordingsOfOneSeedAgreeExactlyWhenTheModelIsDeterministic() throws {
        func compare(_ plan: RunPlan, seed: UInt64) throws -> (same: Bool, divergence: [String]?) {
            let directory = try makeTemporaryDirectory("two-recordings")
            defer { try? FileManager.default.removeItem(at: directory) }
            let recording = try BuiltinCampaigns.recording(plan)
            let first = directory.appendingPathComponent("first.simtrace").path
            let second = directory.appendingPathComponent("second.simtrace").path
            let a = try recording.record(seed: seed, to: first)
            let b = try recording.record(seed: seed, to: second)
            let divergence = try TraceComparison(expected: first, actual: second).firstDifference()
            return (divergence == nil && a.digest == b.digest && a.verdict == b.verdict, divergence)
        }
        #expect(try compare(try BuiltinCampaigns.plan("counter-race"), seed: 4).same)
        let clock = try compare(try BuiltinCampaigns.plan("unruly-counter", variant: "wall-clock"), seed: 4)
        #expect(!clock.same && clock.divergence?.first?.hasPrefix("first divergent event: #") == true)
        let processOrder = try BuiltinCampaigns.plan("unruly-counter", variant: "process-order")
        var caught = false
        for _ in 0..<8 where !caught {
            let pair = try compare(processOrder, seed: 1)
            caught = !pair.same && pair.divergence?.first?.hasPrefix("first divergent event: #") == true
        }
        #expect(caught, "eight pairs of processes never differed in process order")
    }

    /// Code that iterates a `Set` runs the same way in every simrun process (issue #41); the test
    /// process itself is started without the pinning variable, as a user's shell would.
    @Test func setOrderIsTheSameInEveryProcess() throws {
        #expect(ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil, "run unpinned")
        let plan = try BuiltinCampaigns.plan("unruly-counter", variant: "set-order")
        let report = try check(plan, .init(start: 0, stride: 1, count: 8))
        #expect(report.checked == 8 && report.differences.isEmpty, "\(report.differences)")
    }

    /// Planning runs in a child, the check in two more: a `--preempt` run (on carriers) is the same
    /// in each, seed for seed, and its recording has the digest both saw.
    @Test func aPreemptRunIsTheSameInEveryProcess() throws {
        let plan = try BuiltinCampaigns.plan("subject-cancel-deadlock", preempt: true)
        let report = try check(plan, .init(start: 0, stride: 1, count: 6))
        #expect(report.checked == 6 && report.differences.isEmpty, "\(report.differences)")
        let directory = try makeTemporaryDirectory("preempt-digest")
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorded = try BuiltinCampaigns.recording(plan).record(
            seed: 0, to: directory.appendingPathComponent("r.simtrace").path)
        // The digests job and a recording run the same seed the same way.
        let run = try SimrunChildren.launcher.run(
            .digests(.init(plan: try plan.descriptor(), seeds: .init(start: 0, stride: 1, count: 1))))
        let sampled = run.replies.compactMap { reply -> UInt64? in
            if case .sample(_, let digest, _) = reply { return digest } else { return nil }
        }
        #expect(sampled == [recorded.digest.value], "\(run.replies)")
    }
}
