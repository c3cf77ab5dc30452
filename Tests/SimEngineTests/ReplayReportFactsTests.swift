import Foundation
import SimCore
import SimTestSupport
import Testing

@testable import SimEngine

/// The facts a replay verdict rests on, beside the verdict itself: the replayed run's digest and
/// event count, on another variant as on the recorded one.
@Suite struct ReplayReportFactsTests {
    /// `buggy`: the read ahead of the write fails. `noread-flaky`: the read is gone (the race
    /// removed), but the run fails oracle `low` when its data choice is 1 and oracle `high` when it
    /// is 2 (two distinct failures of a campaign, at different seeds).
    static let scenario = Scenario(
        name: "racing-flaky", summary: "a removed race and failures elsewhere",
        variants: [.init("buggy", "both jobs"), .init("noread-flaky", "no read; a flaky choice")]
    ) { sim, variant in
        let written = ValueBox(false)
        let early = ValueBox(false)
        let choice = ValueBox(0)
        sim.post(on: "a", "a.write") {
            written.value = true
            if variant != "buggy" { choice.value = sim.choose(8, "flaky") }
        }
        if variant == "buggy" { sim.post(on: "b", "b.read") { if !written.value { early.value = true } } }
        sim.always("read-after-write") { early.value ? "the read ran before the write" : nil }
        sim.atEnd("low") { choice.value == 1 ? "choice 1" : nil }
        sim.atEnd("high") { choice.value == 2 ? "choice 2" : nil }
    }

    static func trace(_ directory: URL) throws -> String {
        let path = directory.appendingPathComponent("racing-flaky.simtrace").path
        let plan = RunPlan.probed(scenario: scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
        let result = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [1]), strategyName: "random", to: path)
        #expect(result.verdict.isFailure && result.deviations == 1)
        return path
    }

    @Test func aReplayOnAnotherVariantReportsTheRunItMade() throws {
        let directory = try makeTemporaryDirectory("report-facts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.trace(directory)
        let catalog = ScenarioCatalog([Self.scenario])
        let report = try TraceReplay.decide(ReplayRequest(trace: path, variant: "noread-flaky"), catalog: catalog)
        #expect(report.eventCount > 0)
        #expect(report.digest != Digest(), "the replayed run's digest, not an empty one")
        let again = try TraceReplay.decide(ReplayRequest(trace: path, variant: "noread-flaky"), catalog: catalog)
        #expect(again.digest == report.digest && again.eventCount == report.eventCount)
        let same = try TraceReplay.decide(ReplayRequest(trace: path), catalog: catalog)
        #expect(same.verdict == .identical && same.digest != Digest())
    }
}
