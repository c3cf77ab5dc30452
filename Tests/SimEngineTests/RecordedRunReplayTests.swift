import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// A recorded run replays identically on its own variant, for every built-in bug scenario that does
/// not trap; a changed scenario diverges at the first differing event, and the divergence shows the
/// events around it on both sides, named (never as unknown symbols). What `replay` prints of it:
/// SimRunKitTests' `ReplayCommandTests` and `OptimizedBuildCrashTests`.
@Suite struct RecordedRunReplayTests {
    static func record(_ scenario: Scenario, _ variant: String, seed: UInt64, _ spec: StrategySpec, to path: String)
        throws -> RunResult
    {
        let plan = RunPlan.probed(scenario: scenario, variant: variant, strategy: spec)
        return try Recorder.record(
            plan: plan, seed: seed, strategy: plan.makeStrategy(), strategyName: spec.description, to: path)
    }

    static func decide(_ trace: String, _ scenarios: [Scenario]) throws -> ReplayReport {
        try TraceReplay.decide(ReplayRequest(trace: trace), catalog: ScenarioCatalog(scenarios))
    }

    /// counter-race with one more job: worker.c's `audit` after the scenario's own.
    static var counterRaceWithAudit: Scenario {
        var changed = CounterRace.scenario
        let original = changed.setUp
        changed.setUp = { simulation, variant in
            original(simulation, variant)
            simulation.post(on: "worker.c", "audit") { simulation.emit("audit.note", "extra") }
        }
        return changed
    }

    @Test func everyBugScenarioRecordedReplaysIdentically() throws {
        let directory = try makeTemporaryDirectory("record-replay")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("run.simtrace").path
        var replayed = 0
        // unruly-counter's variants trap or read the wall clock on purpose; a variant that traps would
        // end this process: FifoCrashTests.
        for scenario in BuiltinScenarios.all where scenario.hasVariant("buggy") && scenario.hasVariant("fixed") {
            for variant in scenario.variants.filter({ !$0.summary.contains("trap") }).map(\.name) {
                _ = try Self.record(scenario, variant, seed: 7, StrategySpec(kind: .pct), to: path)
                let report = try Self.decide(path, BuiltinScenarios.all)
                #expect(report.verdict == .identical, "\(scenario.name)/\(variant): \(report.verdict)")
                replayed += 1
            }
        }
        #expect(replayed >= 40, "\(replayed) variants")
    }

    @Test func aChangedScenarioDivergesAtTheFirstDifferingEventWithBothSidesNamed() throws {
        let directory = try makeTemporaryDirectory("record-diverge")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("race.simtrace").path
        #expect(try Self.record(CounterRace.scenario, "fixed", seed: 1, .campaignDefault, to: path).verdict == .pass)
        let report = try Self.decide(path, [Self.counterRaceWithAudit])
        guard case .diverged(_, let lines) = report.verdict else {
            Issue.record("not a divergence: \(report.verdict)")
            return
        }
        let text = lines.joined(separator: "\n")
        #expect(text.contains("audit") || text.contains("recording ends"), "the first differing event: \(text)")
        // The replayed side ends with the extra job; both sides' lanes and jobs are named.
        let shown = lines.drop { !$0.contains("recorded:") }
        #expect(shown.contains { $0.contains("worker.c sched.pick audit") }, "\(text)")
        #expect(shown.filter { $0.contains("worker.b counter.read worker.b") }.count == 2, "\(text)")
        #expect(!shown.contains { $0.contains(" ? ") || $0.hasSuffix(" ?") }, "\(text)")
    }

    /// A job that emits `text`, then one that emits `after`: two builds of it have the same events but one's content.
    static func noting(_ text: String) -> Scenario {
        Scenario(name: "noting", summary: "one note", variants: [.init("v", "")]) { simulation, _ in
            simulation.post(on: "main", "note") { simulation.emit("note.text", text) }
            simulation.post(on: "main", "after") { simulation.emit("note.text", "after") }
        }
    }

    /// Same length, same verdict, one event's content changed: a divergence at that event, never
    /// "identical" (the generated mutant M27, a comparison that matched every event, passed the others).
    @Test func anEventWhoseContentChangedIsADivergenceAtThatEvent() throws {
        let directory = try makeTemporaryDirectory("record-content")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("note.simtrace").path
        let recorded = try Self.record(Self.noting("left"), "v", seed: 0, StrategySpec(kind: .fifo), to: path)
        #expect(recorded.verdict == .pass)
        #expect(try Self.decide(path, [Self.noting("left")]).verdict == .identical)
        let report = try Self.decide(path, [Self.noting("right")])
        guard case .diverged(let event, let lines) = report.verdict else {
            Issue.record("not a divergence: \(report.verdict)")
            return
        }
        let text = lines.joined(separator: "\n")
        #expect(text.contains("note.text left") && text.contains("note.text right"), "\(text)")
        #expect(event < recorded.eventCount, "at the changed event, not at the end: \(event)")
    }

    /// A run that ends before its recording: the context shows the last matched events, then the
    /// recorded event the run never reached (the generated mutant G0623 showed the first ones).
    @Test func aRunShorterThanItsRecordingShowsTheEventsJustBeforeTheDifference() throws {
        let directory = try makeTemporaryDirectory("record-longer")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("longer.simtrace").path
        let recorded = try Self.record(Self.counterRaceWithAudit, "fixed", seed: 1, StrategySpec(kind: .fifo), to: path)
        #expect(recorded.verdict == .pass, "\(recorded.verdict)")
        let report = try Self.decide(path, [CounterRace.scenario])
        guard case .diverged(_, let lines) = report.verdict else {
            Issue.record("not a divergence: \(report.verdict)")
            return
        }
        let text = lines.joined(separator: "\n")
        #expect(text.contains("the recording continues after the run ended"), "\(text)")
        let recordedSide = lines.drop { !$0.contains("recorded:") }.dropFirst().prefix { !$0.contains("replayed:") }
        #expect(recordedSide.last?.contains("worker.c sched.pick audit") == true, "\(text)")
        #expect(recordedSide.dropLast().last?.contains("worker.b counter.write worker.b value=2") == true, "\(text)")
    }
}
