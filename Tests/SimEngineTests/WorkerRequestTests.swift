import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// The one value a fuzz worker process is told (`WorkerRequest`): every stored property crosses
/// the process boundary, and the plan the worker rebuilds is the parent's.
@Suite struct WorkerRequestTests {
    /// Every member set to something other than `minimal`'s.
    static let full = WorkerRequest(
        scenario: "lost-input-navigation", variant: "fixed", strategy: "pct:depth=4", worker: 2, workers: 3, goals: 5,
        space: SeedSpace(seeds: 7..<900, shardIndex: 1, shardCount: 4, bounded: false), estimatedSteps: 41,
        keepGoing: true, milliseconds: 12_345, resume: 65..<128, from: "/tmp/x y.simtrace", keep: 9, noise: 3,
        carriers: .preemptLocks)

    static let minimal = WorkerRequest(
        scenario: "", variant: "", strategy: "", worker: 0, workers: 1, goals: 0, space: SeedSpace(seeds: 0..<0),
        estimatedSteps: nil, keepGoing: false, milliseconds: nil, resume: nil, from: nil, keep: 0, noise: 0)

    @Test func everyStoredPropertyIsSetByTheFixtureAndSurvivesTheRoundTrip() throws {
        // A property added to WorkerRequest and not to `full` fails here; one not encoded or not
        // decoded fails the round trip below. Together: no option is forgotten on one side.
        let fullChildren = Array(Mirror(reflecting: Self.full).children)
        let minimalChildren = Array(Mirror(reflecting: Self.minimal).children)
        #expect(fullChildren.count == minimalChildren.count)
        for (set, unset) in zip(fullChildren, minimalChildren) {
            #expect(
                String(describing: set.value) != String(describing: unset.value),
                "the fixture leaves \(set.label ?? "?") at its minimal value: set it, so the round trip tests it")
        }
        let decoded = try WorkerRequest(decoding: Self.full.text)
        #expect(decoded == Self.full)
        #expect(try WorkerRequest(decoding: Self.minimal.text) == Self.minimal)
        // One JSON member per stored property, plus the version.
        let members = try JSONValue(parsing: Self.full.text)
        guard case .object(let list) = members else { throw Expectation.notAnObject }
        #expect(list.count == fullChildren.count + 1)
    }

    @Test func aMissingMemberAnotherVersionOrBadJSONIsRefusedNamingIt() throws {
        let text = Self.full.text
        let withoutNoise = text.replacingOccurrences(of: ",\"noise\":3", with: "")
        #expect(withoutNoise != text)
        #expect(throws: SimEngineError.self) { try WorkerRequest(decoding: withoutNoise) }
        do {
            _ = try WorkerRequest(decoding: withoutNoise)
        } catch {
            #expect(error.message == "worker request: no 'noise'")
            #expect(error.kind == .usage)
        }
        let future = text.replacingOccurrences(of: "\"version\":1", with: "\"version\":2")
        do {
            _ = try WorkerRequest(decoding: future)
            Issue.record("version 2 was read")
        } catch {
            #expect(error.message == "worker request version 2; this simrun reads version 1")
        }
        #expect(throws: SimEngineError.self) { try WorkerRequest(decoding: "worker 1") }
        #expect(throws: SimEngineError.self) { try WorkerRequest(decoding: "") }
    }

    @Test func theWorkerRebuildsTheParentsPlan() throws {
        let directory = try makeTemporaryDirectory("worker-request")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("from.simtrace").path
        let scenario = LostInputNavigation.scenario
        let source = RunPlan(scenario: scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
        _ = try Recorder.record(
            plan: source, seed: 3, strategy: source.makeStrategy(), strategyName: "random", to: trace)
        var parent = RunPlan(
            scenario: scenario, variant: "buggy", strategy: try #require(StrategySpec(parsing: "pct:depth=2")),
            estimatedSteps: 17, noise: 2)
        parent.carriers = .preemptLocks
        parent.prefix = SchedulePrefix(tape: try TraceInput(path: trace).tape, keep: 2, source: trace)
        let request = WorkerRequest(
            plan: parent, worker: 0, workers: 2, goals: 1, space: SeedSpace(seeds: 0..<10), keepGoing: false,
            milliseconds: nil, resume: nil)
        let child = try WorkerRequest(decoding: request.text).plan(in: ScenarioCatalog([scenario]))
        #expect(child.scenario.name == parent.scenario.name)
        #expect(child.variant == parent.variant)
        #expect(child.strategy == parent.strategy)
        #expect(child.estimatedSteps == parent.estimatedSteps)
        #expect(child.noise == parent.noise)
        #expect((parent.prefix?.keep ?? 0) > 0)
        #expect(child.prefix?.keep == parent.prefix?.keep && child.prefix?.source == trace)
        #expect(child.prefix?.tape == parent.prefix?.tape)
        // The same seed runs the same schedule in both plans.
        let here = parent.run(seed: 5, strategy: parent.makeStrategy())
        let there = child.run(seed: 5, strategy: child.makeStrategy())
        #expect(here.digest == there.digest)
    }

    enum Expectation: Error { case notAnObject }
}

/// The one value a recording child is told (`RecordRequest`): every stored property crosses.
@Suite struct RecordRequestTests {
    static let full = RecordRequest(
        scenario: "lost-input-navigation", variant: "fixed", strategy: "pct:depth=4", seed: 99, out: "/tmp/o.simtrace",
        tapeFrom: "/tmp/t.simtrace", byIdentity: true, scheduleFromTrace: true, fileScheduleOnly: true, noise: 2,
        from: "/tmp/f.simtrace",
        keep: 3, estimatedSteps: 12, carriers: .preemptLocks, inOrder: .init(run: 4, seeds: 10..<20))
    static let minimal = RecordRequest(scenario: "", variant: "", strategy: "", seed: 0, out: "")

    @Test func everyStoredPropertyIsSetByTheFixtureAndSurvivesTheRoundTrip() throws {
        let fullChildren = Array(Mirror(reflecting: Self.full).children)
        let minimalChildren = Array(Mirror(reflecting: Self.minimal).children)
        #expect(fullChildren.count == minimalChildren.count)
        for (set, unset) in zip(fullChildren, minimalChildren) {
            #expect(
                String(describing: set.value) != String(describing: unset.value),
                "the fixture leaves \(set.label ?? "?") at its minimal value: set it, so the round trip tests it")
        }
        #expect(try RecordRequest(decoding: Self.full.text) == Self.full)
        #expect(try RecordRequest(decoding: Self.minimal.text) == Self.minimal)
        guard case .object(let list) = try JSONValue(parsing: Self.full.text) else {
            throw WorkerRequestTests.Expectation.notAnObject
        }
        #expect(list.count == fullChildren.count + 1)
        let withoutSeed = Self.full.text.replacingOccurrences(of: "\"seed\":99,", with: "")
        do {
            _ = try RecordRequest(decoding: withoutSeed)
            Issue.record("a request without its seed was read")
        } catch {
            #expect(error.message == "record request: no 'seed'")
        }
    }
}
