import SimCore
import Testing

@testable import SimTrace

/// `nextEvent(into:)` and `nextSkippingEvents()` read the same stream as `next()`, without the
/// record enum: they must yield the same events and records, and stop and fail the same way.
@Suite struct TraceFastPathTests {
    private static func fastEvents(_ bytes: [UInt8]) -> (events: [Event], reader: TraceReader?, error: TraceError?) {
        var events: [Event] = []
        do {
            let reader = try TraceReader(bytes: bytes, name: "fast")
            var event = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
            do {
                while try reader.nextEvent(into: &event) { events.append(event) }
            } catch {
                return (events, reader, error)
            }
            return (events, reader, nil)
        } catch {
            return (events, nil, error)
        }
    }

    @Test func nextEventYieldsExactlyTheEventsOfNext() throws {
        let (bytes, run) = try TraceFixtures.memoryTrace(count: 3_000, checkpointEvery: 500, eventsPerFrame: 700)
        let fast = Self.fastEvents(bytes)
        #expect(fast.error == nil)
        #expect(fast.events == run.events)
        #expect(fast.reader?.footer == run.footer)
        #expect(fast.reader?.decisionCount == UInt64(run.decisions.count))
        #expect(fast.reader?.isTruncated == false)
    }

    @Test func nextSkippingEventsYieldsEveryOtherRecordOfNext() throws {
        let (bytes, _) = try TraceFixtures.memoryTrace(count: 2_000, checkpointEvery: 300)
        let all = TraceFixtures.readAll(bytes).records.filter { if case .event = $0 { false } else { true } }
        let reader = try TraceReader(bytes: bytes, name: "skip")
        var skipped: [TraceRecord] = []
        while let record = try reader.nextSkippingEvents() { skipped.append(record) }
        #expect(skipped == all)
    }

    @Test func aCutOrDamagedTraceStopsAndFailsAsNextDoes() throws {
        let (bytes, _) = try TraceFixtures.memoryTrace(count: 1_000, eventsPerFrame: 100)
        for cut in stride(from: 1, to: bytes.count, by: 97) {
            let slow = TraceFixtures.readAll(Array(bytes[..<cut]))
            let fast = Self.fastEvents(Array(bytes[..<cut]))
            #expect(fast.events == TraceFixtures.events(slow.records))
            #expect(fast.error?.kind == slow.error?.kind)
            #expect(fast.reader?.isTruncated == slow.reader?.isTruncated)
        }
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0x5A
        let slow = TraceFixtures.readAll(damaged)
        let fast = Self.fastEvents(damaged)
        #expect(fast.events == TraceFixtures.events(slow.records))
        #expect(fast.error?.kind == slow.error?.kind)
    }

    /// The reader keeps each int key's last value in a buffer that grows as symbols arrive (64, 128,
    /// 256, …): int fields under keys defined past each growth, interleaved with keys defined before
    /// it, must decode to what was written, by both read paths.
    @Test func intFieldsUnderManyKeysSurviveTheDeltaBufferGrowing() throws {
        let writer = try TraceWriter(inMemory: "keys.simtrace", header: TraceFixtures.header, eventsPerFrame: 400)
        var texts = [""]
        func define(_ text: String) -> Symbol {
            let symbol = Symbol(raw: UInt32(texts.count))
            texts.append(text)
            writer.define(symbol, text)
            return symbol
        }
        let lane = define("main")
        let kind = define("value.set")
        var keys: [Symbol] = []
        var events: [Event] = []
        for index in 0..<3_000 {
            if keys.count < 300 && index % 7 == 0 { keys.append(define("key.\(keys.count)")) }
            let key = keys[(index * 31) % keys.count]
            var fields = EventFields()
            fields.append(EventField(key, .int(Int64(index) * 1_000 - Int64(key.raw) * 7)))
            fields.append(EventField(keys[index % keys.count], .int(-Int64(index))))
            let event = Event(
                seq: UInt64(index + 1), time: Int64(index), lane: lane, kind: kind, subject: .empty, fields: fields)
            writer.record(event)
            events.append(event)
        }
        var digest = Digest()
        for event in events { digest.mix(event) { Digest.hash(text: texts[Int($0.raw)]) } }
        try writer.finish(
            TraceFooter(
                eventCount: UInt64(events.count), decisionCount: 0, steps: UInt64(events.count),
                endTime: Int64(events.count), verdict: .pass, digest: digest))
        #expect(keys.count == 300)
        let fast = Self.fastEvents(writer.bytes)
        #expect(fast.error == nil)
        #expect(fast.events == events)
        let slow = TraceFixtures.readAll(writer.bytes)
        #expect(slow.error == nil)
        #expect(TraceFixtures.events(slow.records) == events)
    }

    /// `nextAdjacentEvent(into:)` then `nextEventOrDecision(into:)` (what the replay's sink does)
    /// yields every event and decision of `next()`, in order, and stops where it stops.
    @Test func adjacentEventsThenRecordsYieldWhatNextYields() throws {
        let (bytes, run) = try TraceFixtures.memoryTrace(count: 2_000, checkpointEvery: 300, eventsPerFrame: 450)
        for cut in [bytes.count, bytes.count * 2 / 3] {
            let slow = TraceFixtures.readAll(Array(bytes[..<cut]))
            let reader = try TraceReader(bytes: Array(bytes[..<cut]), name: "adjacent")
            var event = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
            var events: [Event] = []
            var decisions: [Decision] = []
            reading: while true {
                if try reader.nextAdjacentEvent(into: &event) {
                    events.append(event)
                    continue
                }
                switch try reader.nextEventOrDecision(into: &event) {
                case .event: events.append(event)
                case .decision(let decision): decisions.append(decision)
                case .end: break reading
                }
            }
            #expect(events == TraceFixtures.events(slow.records))
            #expect(decisions.count == slow.records.filter { if case .decision = $0 { true } else { false } }.count)
            #expect(reader.isTruncated == (cut != bytes.count))
            if cut == bytes.count {
                #expect(events == run.events)
                #expect(decisions == run.decisions)
            }
            #expect(try reader.nextAdjacentEvent(into: &event) == false)
        }
    }
}
