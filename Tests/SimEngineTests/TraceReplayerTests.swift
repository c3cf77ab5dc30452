import Foundation
import SimCore
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// `TraceReplayer.replayComparing` (what `replay` runs on the recorded variant) follows the schedule and compares the events from one pass over the file: the
/// strategy's side buffers the events it reads past, the sink's side the decisions; past the bound
/// the schedule is read in a second pass. A faithful replay reads in lockstep (nothing buffered,
/// however long the stretches between decisions); whatever the path, the outcome is the two-pass one.
@Suite struct TraceReplayerTests {
    /// Long stretches without a decision: `lead` jobs of `burst` events on lane a alone, then two
    /// lanes of `jobs` jobs each (a pick per step; every 7th job four `choose`s in a row, then an
    /// event). Against `default`: `drifts` changes one field of lane b's 40th job, `shorter` makes
    /// that job emit 10 events (the replay asks for the next decision while the recording still has
    /// events), `longer` makes b's 42nd job emit one more (the recording has four decisions where
    /// the replay has an event).
    static let bursts = Scenario(
        name: "bursts", summary: "long runs of events between decisions",
        variants: [
            .init("default", "as recorded"), .init("drifts", "lane b's 40th job emits another value"),
            .init("shorter", "lane b's 40th job emits fewer events"),
            .init("longer", "lane b's 42nd job emits one more event"),
        ],
        limits: RunLimits(maxSteps: 100_000, maxVirtualNanoseconds: .max)
    ) { simulation, variant in
        let (lead, jobs, burst) = (3, 60, 40)
        let step = simulation.symbol("step")
        let kind = simulation.symbol("burst.event")
        let key = simulation.symbol("i")
        let names = ["a", "b"]
        let lanes = names.map { simulation.lane($0) }
        let subjects = names.map { simulation.symbol("chain.\($0)") }
        let done = Box([0, 0])
        func emitBurst(_ chain: Int, extra: Int64, count: Int = burst) {
            for index in 0..<count {
                var fields = EventFields()
                fields.append(EventField(key, .int(Int64(done.value[chain] * burst + index) + extra)))
                simulation.emit(kind, subject: subjects[chain], fields: fields)
            }
        }
        func run(_ chain: Int) {
            done.value[chain] += 1
            let drift: Int64 = variant == "drifts" && chain == 1 && done.value[chain] == 40 ? 1 : 0
            var count = burst
            if chain == 1 && variant == "shorter" && done.value[chain] == 40 { count = 10 }
            if chain == 1 && variant == "longer" && done.value[chain] == 42 { count = burst + 1 }
            emitBurst(chain, extra: drift, count: count)
            if done.value[chain] % 7 == 0 {
                let sum = (0..<4).reduce(0) { total, _ in total + simulation.choose(3, "pick") }
                var fields = EventFields()
                fields.append(EventField(key, .int(Int64(sum))))
                simulation.emit(kind, subject: subjects[chain], fields: fields)
            }
            if done.value[chain] < jobs { simulation.post(lanes[chain], step) { run(chain) } }
        }
        func leadJob(_ left: Int) {
            emitBurst(0, extra: 1000)
            if left > 1 {
                simulation.post(lanes[0], step) { leadJob(left - 1) }
            } else {
                for chain in 0..<2 { simulation.post(lanes[chain], step) { run(chain) } }
            }
        }
        simulation.post(lanes[0], step) { leadJob(lead) }
    }

    final class Box<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    static func record(variant: String = "default", seed: UInt64 = 5, eventsPerFrame: Int = 64) throws -> String {
        let path = TemporaryFiles.path("one-pass.simtrace")
        let plan = RunPlan.probed(scenario: bursts, variant: variant, strategy: StrategySpec(kind: .random))
        let header = TraceHeader(
            toolVersion: "test", scenario: bursts.name, variant: variant, seed: seed, strategy: "random",
            options: plan.options.map { TraceOption($0.0, $0.1) })
        let writer = try TraceWriter(path: path, header: header, eventsPerFrame: eventsPerFrame)
        let result = plan.run(seed: seed, strategy: plan.makeStrategy(), sink: writer)
        try writer.finish(Recorder.footer(for: result))
        return path
    }

    static func replay(_ path: String, variant: String = "default", maxBuffered: Int = 4096) throws
        -> TraceReplayer.Outcome
    {
        let plan = RunPlan.probed(scenario: bursts, variant: variant, strategy: StrategySpec(kind: .random))
        return try TraceReplayer.replayComparing(
            reading: TraceReader(path: path), path: path, plan: plan, maxBuffered: maxBuffered)
    }

    /// The two-pass way: the whole tape first, then a separate reader for the events.
    static func twoPass(_ path: String, variant: String = "default") throws -> (RunResult, [String]) {
        let file = try TraceFile.load(path: path)
        let plan = RunPlan.probed(scenario: bursts, variant: variant, strategy: StrategySpec(kind: .random))
        let (result, strategy) = plan.replay(file.tape, seed: file.header.seed)
        return (result, strategy.notes)
    }

    @Test func aLongTraceReplaysIdenticallyInOnePass() throws {
        let path = try Self.record()
        defer { unlink(path) }
        let file = try TraceFile.load(path: path)
        #expect(file.events.count > 5_000)
        #expect(file.decisions.contains { $0.kind == .choose })
        let outcome = try Self.replay(path)
        #expect(outcome.divergence == nil)
        #expect(outcome.notes.isEmpty)
        #expect(!outcome.readTwice)
        #expect(outcome.eventsCompared == UInt64(file.events.count))
        #expect(outcome.result.digest == file.footer?.digest)
        #expect(outcome.recordedFooter == file.footer)
        #expect(!outcome.recordingIsTruncated)
        #expect(TraceEnding.read(path: path) == .records)
    }

    @Test func aFaithfulReplayReadsInLockstepWhateverTheBound() throws {
        let path = try Self.record()
        defer { unlink(path) }
        let outcome = try Self.replay(path, maxBuffered: 1)
        #expect(!outcome.readTwice)
        #expect(outcome.divergence == nil)
        #expect(outcome.result.digest == outcome.recordedFooter?.digest)
    }

    @Test(arguments: [("shorter", 3), ("longer", 2), ("shorter", 4096), ("longer", 4096)])
    func aReplayThatRunsAheadPastTheBoundReadsTheScheduleTwice(variant: String, bound: Int) throws {
        let path = try Self.record()
        defer { unlink(path) }
        let outcome = try Self.replay(path, variant: variant, maxBuffered: bound)
        #expect(outcome.readTwice == (bound < 100))
        let lines = try #require(outcome.divergence)
        #expect(lines[0].hasPrefix("first difference at event #"))
        // The same schedule followed, with the same departures, as the two-pass replay.
        let (twoPass, notes) = try Self.twoPass(path, variant: variant)
        #expect(outcome.notes == notes)
        #expect(outcome.result.digest == twoPass.digest)
        #expect(outcome.result.tape == twoPass.tape)
    }

    @Test(arguments: [3, 4096])
    func aDivergenceShowsTheFirstDifferingEventFromBothSides(bound: Int) throws {
        let path = try Self.record()
        defer { unlink(path) }
        let outcome = try Self.replay(path, variant: "drifts", maxBuffered: bound)
        let lines = try #require(outcome.divergence)
        #expect(lines[0].hasPrefix("first difference at event #"))
        // The first differing field is named: the 40th job of lane b emits another value.
        #expect(lines[0].contains("events differ in field"), "\(lines[0])")
        let recorded = try #require(lines.firstIndex(of: "  recorded:"))
        let replayed = try #require(lines.firstIndex(of: "  replayed:"))
        // Context before the difference, then the differing event on each side.
        #expect(replayed - recorded - 1 == ComparingSink.context + 1)
        #expect(lines.count - replayed - 1 == ComparingSink.context + 1)
        #expect(lines[replayed - 1] != lines[lines.count - 1])
        #expect(lines[recorded + 1] == lines[replayed + 1])
        // The schedule is still followed to the end, as the two-pass replay follows it.
        let (twoPass, notes) = try Self.twoPass(path, variant: "drifts")
        #expect(outcome.notes == notes)
        #expect(outcome.result.digest == twoPass.digest)
        #expect(outcome.recordedFooter != nil)
    }

    @Test func aTruncatedTraceMatchesUpToItsLastFrame() throws {
        let path = try Self.record(eventsPerFrame: 500)
        defer { unlink(path) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        for fraction in [0.3, 0.6, 0.9] {
            let cut = path + ".cut"
            defer { unlink(cut) }
            try whole.prefix(Int(Double(whole.count) * fraction)).write(to: URL(fileURLWithPath: cut))
            let readable = try TraceFile.load(path: cut)
            #expect(readable.isTruncated)
            for bound in [2, 4096] {
                let outcome = try Self.replay(cut, maxBuffered: bound)
                #expect(outcome.divergence == nil)
                #expect(outcome.reachedTruncation)
                #expect(outcome.recordingIsTruncated)
                #expect(outcome.recordedFooter == nil)
                #expect(outcome.eventsCompared == UInt64(readable.events.count))
                #expect(TraceEnding.read(path: cut) != .records || readable.isTruncated)
            }
        }
    }

    @Test func theEndOfASealedCrashTraceIsItsFooter() throws {
        let path = try Self.record(eventsPerFrame: 100)
        defer { unlink(path) }
        // A partial recording cut at a frame end, sealed as a crash (what a dying worker leaves).
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let partial = path + ".partial"
        let sealed = path + ".sealed"
        defer {
            unlink(partial)
            unlink(sealed)
        }
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: partial))
        let result = try TraceSealer.seal(partial: partial, as: sealed, verdict: .crashed("trap"))
        #expect(TraceEnding.read(path: sealed) == .footer(result.footer))
        // Cut inside its last frame, the end is unknown (the caller reads the whole trace).
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sealed))
        try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: partial))
        #expect(TraceEnding.read(path: partial) == .unknown)
    }

    @Test func damageAfterTheDivergenceIsStillReported() throws {
        let path = try Self.record(eventsPerFrame: 200)
        defer { unlink(path) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Flip a byte near the end (inside an earlier frame than the last): a checksum error there.
        bytes[bytes.count * 9 / 10] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: SimEngineError.self) { try Self.replay(path, variant: "drifts") }
        #expect(throws: SimEngineError.self) { try Self.replay(path) }
    }
}
