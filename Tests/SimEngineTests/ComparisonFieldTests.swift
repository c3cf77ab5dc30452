import Foundation
import SimCore
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// Comparisons report the first differing field, virtual time included: a replay or a re-run whose
/// events differ only in when they happened is a divergence at that event, named as a time, not only
/// a different final digest.
@Suite struct ComparisonFieldTests {
    static let names = ["", "main", "worker", "tick", "late", "value", "other"]

    static func base() -> Event {
        var event = Event(seq: 5, time: 1_000, lane: Symbol(raw: 1), kind: Symbol(raw: 3), subject: Symbol(raw: 2))
        event.cause = 4
        event.fields.append(EventField(Symbol(raw: 5), .int(7)))
        event.fields.append(EventField(Symbol(raw: 6), .bool(true)))
        return event
    }

    /// Each single change, and the field it must be reported as (in the order a reader meets them).
    static var changes: [(String, (inout Event) -> Void)] {
        [
        ("event number", { $0.seq = 6 }),
        ("virtual time", { $0.time = 1_001 }),
        ("lane", { $0.lane = Symbol(raw: 2) }),
        ("kind", { $0.kind = Symbol(raw: 4) }),
        ("subject", { $0.subject = Symbol(raw: 1) }),
        ("cause", { $0.cause = 3 }),
        ("field 'value'", { $0.fields = EventFields([EventField(Symbol(raw: 5), .int(8)), EventField(Symbol(raw: 6), .bool(true))]) }),
        ("field 'other'", { $0.fields = EventFields([EventField(Symbol(raw: 5), .int(7)), EventField(Symbol(raw: 6), .bool(false))]) }),
        ("field 1's name", { $0.fields = EventFields([EventField(Symbol(raw: 4), .int(7)), EventField(Symbol(raw: 6), .bool(true))]) }),
        ("field count", { $0.fields = EventFields([EventField(Symbol(raw: 5), .int(7))]) }),
        ]
    }

    static func difference(_ a: Event, _ b: Event) -> String? {
        EventDifference.first(recorded: a, { names[Int($0.raw)] }, replayed: b, { names[Int($0.raw)] })
    }

    @Test func eachSingleChangeIsNamedByItsField() {
        let base = Self.base()
        #expect(Self.difference(base, base) == nil)
        for (field, change) in Self.changes {
            var changed = base
            change(&changed)
            let found = Self.difference(base, changed)
            #expect(found?.hasPrefix(field + ":") == true, "\(field): \(String(describing: found))")
            #expect(Self.difference(changed, base)?.hasPrefix(field + ":") == true, "\(field), swapped")
        }
        var later = base
        later.time = 2_500
        #expect(Self.difference(base, later) == "virtual time: recorded 1000 ns, replayed 2500 ns")
    }

    @Test func ofTwoChangesTheEarlierFieldIsNamed() {
        for (first, a) in Self.changes.indices.map({ ($0, Self.changes[$0]) }) {
            // Two changes of the fields list would overwrite each other: one of them at a time.
            for b in Self.changes[(first + 1)...] where !(a.0.hasPrefix("field") && b.0.hasPrefix("field")) {
                var changed = Self.base()
                a.1(&changed)
                b.1(&changed)
                let found = Self.difference(Self.base(), changed)
                #expect(found?.hasPrefix(a.0 + ":") == true, "\(a.0) then \(b.0): \(String(describing: found))")
            }
        }
    }

    @Test func symbolsCompareByTextNotNumber() {
        let base = Self.base()
        var renumbered = base
        renumbered.lane = Symbol(raw: 9)
        let found = EventDifference.first(
            recorded: base, { Self.names[Int($0.raw)] }, replayed: renumbered,
            { $0.raw == 9 ? "main" : Self.names[Int($0.raw)] })
        #expect(found == nil, "the same text under another number is the same lane")
    }

    // MARK: End to end: a replay and a trace comparison

    /// A timer due after `delay` ns (1000, or 1001 in variant `late`), then two more events.
    static let ticking = Scenario(
        name: "ticking-late", summary: "a timer one nanosecond late in one variant",
        variants: [.init("default", "on time"), .init("late", "one nanosecond late")]
    ) { sim, variant in
        sim.post(on: "main", "start") {
            sim.after(.nanoseconds(variant == "late" ? 1_001 : 1_000), "tick") {
                sim.post(on: "worker", "after tick") {}
            }
        }
        sim.post(on: "worker", "work") {}
    }

    static func record(_ variant: String) throws -> String {
        let path = TemporaryFiles.path("ticking-\(variant).simtrace")
        let plan = RunPlan.probed(scenario: ticking, variant: variant, strategy: StrategySpec(kind: .fifo))
        let header = TraceHeader(
            toolVersion: "test", scenario: ticking.name, variant: variant, seed: 1, strategy: "fifo",
            options: plan.options.map { TraceOption($0.0, $0.1) })
        let writer = try TraceWriter(path: path, header: header)
        let result = plan.run(seed: 1, strategy: plan.makeStrategy(), sink: writer)
        try writer.finish(Recorder.footer(for: result))
        return path
    }

    @Test func aReplayOneNanosecondLateDivergesAtTheTimerNamingTheTime() throws {
        let path = try Self.record("default")
        let plan = RunPlan.probed(scenario: Self.ticking, variant: "late", strategy: StrategySpec(kind: .fifo))
        let outcome = try TraceReplayer.replayComparing(reading: TraceReader(path: path), path: path, plan: plan)
        let lines = try #require(outcome.divergence, "a late timer must diverge")
        #expect(lines[0].contains("events differ in virtual time: recorded 1000 ns, replayed 1001 ns"), "\(lines)")
        let onTime = RunPlan.probed(scenario: Self.ticking, variant: "default", strategy: StrategySpec(kind: .fifo))
        #expect(try TraceReplayer.replayComparing(reading: TraceReader(path: path), path: path, plan: onTime).divergence == nil)
    }

    @Test func twoTracesOneNanosecondApartDifferFirstInTime() throws {
        let onTime = try Self.record("default")
        let late = try Self.record("late")
        let difference = try #require(try TraceComparison(expected: onTime, actual: late).difference())
        #expect(difference.lines[0].contains("virtual time: first run 1000 ns, second run 1001 ns"), "\(difference.lines)")
        #expect(!difference.expectedEnded)
        let file = try TraceFile.load(path: onTime)
        let timer = try #require(file.events.first { $0.time == 1_000 })
        #expect(difference.atEvent == timer.seq, "the first event at the timer's time")
        #expect(try TraceComparison(expected: onTime, actual: onTime).firstDifference() == nil)
    }
}
