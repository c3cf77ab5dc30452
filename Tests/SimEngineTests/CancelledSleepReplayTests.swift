import Foundation
import SimCapture
import SimCore
import SimTestSupport
import Testing

@testable import SimEngine

/// Two tasks sleep 100 ms; the second's work must not run first. `fixed` cancels the second while it
/// sleeps (at 50 ms), so its work never runs: its timer still fires at 100 ms, but as an empty job.
private let sleepers = Scenario.async(
    name: "sleepers", summary: "two sleeping tasks, the second one's work must not run first",
    variants: [.init("buggy", "both sleep and work"), .init("fixed", "the second is cancelled while it sleeps")]
) { simulation, variant in
    let order = SleepOrder()
    simulation.always("first-works-first") {
        order.names.first == "second" ? "the second task's work ran before the first's" : nil
    }
    let first = Task {
        try? await Task.sleep(for: .milliseconds(100))
        order.names.append("first")
    }
    let second = Task {
        do { try await Task.sleep(for: .milliseconds(100)) } catch { return }
        order.names.append("second")
    }
    try? await Task.sleep(for: .milliseconds(50))
    if variant == "fixed" { second.cancel() }
    _ = await (first.value, second.value)
}

private final class SleepOrder: @unchecked Sendable {
    var names: [String] = []
}

@Suite struct CancelledSleepReplayTests {
    @Test func aCancelledSleepsTimerIsNotTheRecordedWakeUpButShowsTheRaceRemoved() throws {
        let directory = try makeTemporaryDirectory("cancelled-sleep")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sleepers.simtrace").path
        let seed = try #require(
            (UInt64(0)..<200).first {
                sleepers.run(variant: "buggy", seed: $0, strategy: RandomStrategy()).verdict.isFailure
            })
        let plan = RunPlan.probed(scenario: sleepers, variant: "buggy", strategy: StrategySpec(kind: .random))
        let recorded = try Recorder.record(
            plan: plan, seed: seed, strategy: RandomStrategy(), strategyName: "random", to: path)
        #expect(recorded.verdict.isFailure)

        // On `fixed` the second task wakes at 50 ms, cancelled; the trace says so, and its timer job
        // is labelled as the empty job it is.
        let sink = MemorySink()
        _ = sleepers.run(variant: "fixed", seed: seed, strategy: RandomStrategy(), sink: sink)
        let kinds = sink.events.map { (sink.text($0.kind), sink.text($0.subject)) }
        // The second task made: the body's third closure (`task.2` where creation sites are
        // not read).
        let created = kinds.filter { $0.0 == "task.create" }.map(\.1)
        #expect(created.count == 3, "\(created)")
        #expect(kinds.contains { $0 == ("task.sleep.cancelled", created.last ?? "") }, "\(kinds)")
        if TaskNames.creationSitesAreRead { #expect(created.last == "task>sleepers{1}{3}.1", "\(created)") }
        #expect(kinds.contains { $0 == ("sched.pick", "task.sleep.cancelled") }, "\(kinds)")

        // Replayed on `fixed`, the recorded wake-up of the second task is not followed by the
        // cancelled sleep's empty timer (never counted as the wake-up: no pass that tested nothing).
        // The second task's work never races the first's there: the fix removed the race, and a
        // campaign on `fixed` decides (issue #43).
        let report = try TraceReplay.decide(
            ReplayRequest(trace: path, variant: "fixed"), catalog: ScenarioCatalog([sleepers]))
        guard case .pass(let evidence?) = report.verdict else {
            Issue.record("not a pass decided by a campaign: \(report.verdict)")
            return
        }
        #expect(report.tally.followedDeviations < report.tally.deviations, "\(report.tally.line)")
        // The one recorded departure, the second task's wake-up, is named as not followed.
        #expect(evidence.unfollowed.count == 1, "\(evidence)")
        #expect(evidence.unfollowed.first?.summary.hasPrefix("\(created.last ?? "")/resume#1 before ") == true)
        #expect(evidence.failures == 0, "\(evidence)")
        #expect(evidence.line(variant: "fixed").hasPrefix("the fix removes the recorded race (decision "))
    }
}
