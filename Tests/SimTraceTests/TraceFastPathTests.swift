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
}
