import Foundation
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

    /// With at least `longestRecord` bytes left in its frame, a record is read without bound checks
    /// and read again by the checked path only when it is malformed. Every malformed event and
    /// decision must fail there exactly as it fails at a frame's end (where only the checked path
    /// reads): the same error, at the same offset, after the same events, by `next()`,
    /// `nextEvent(into:)` and `nextSkippingEvents()`.
    @Test func malformedRecordsFailTheSameWithRoomLeftInTheFrame() throws {
        let header = try TraceFixtures.headerFrame()
        let bad: [(String, (RecordBuffer) -> Void)] = [
            ("undefined lane", { $0.byte(RecordTag.laneBit); $0.varint(9) }),
            ("undefined kind", { $0.byte(RecordTag.kindBit); $0.varint(300) }),
            ("undefined subject", { $0.byte(RecordTag.subjectBit | RecordTag.timeBit); $0.signed(-5); $0.varint(2) }),
            ("nine fields", { $0.byte(RecordTag.explicitFieldCount << RecordTag.fieldShift); $0.varint(9) }),
            ("two explicit fields", { $0.byte(RecordTag.explicitFieldCount << RecordTag.fieldShift); $0.varint(2) }),
            ("overlong time", { $0.byte(RecordTag.timeBit); for _ in 0..<11 { $0.byte(0xFF) } }),
            ("65-bit cause", { $0.byte(RecordTag.causeBit); for _ in 0..<9 { $0.byte(0x80) }; $0.byte(0x02) }),
            ("undefined field key", { $0.byte(1 << RecordTag.fieldShift); $0.varint(7 << 2 | FieldTag.int); $0.signed(1) }),
            (
                "undefined symbol value",
                { $0.byte(2 << RecordTag.fieldShift); $0.varint(1 << 2 | FieldTag.boolTrue); $0.varint(1 << 2 | FieldTag.symbol); $0.varint(77) }
            ),
            ("overlong int value", { $0.byte(1 << RecordTag.fieldShift); $0.varint(1 << 2 | FieldTag.int); for _ in 0..<12 { $0.byte(0x81) } }),
            ("choice past 32 bits", { $0.byte(RecordTag.decisionBase); $0.varint(1 << 33); $0.varint(2); $0.signed(0) }),
            ("count past 32 bits", { $0.byte(RecordTag.decisionBase); $0.varint(1); $0.varint(UInt64.max); $0.signed(0) }),
            ("undefined decision lane", { $0.byte(RecordTag.decisionBase | RecordTag.decisionLaneBit); $0.varint(0); $0.varint(2); $0.varint(5); $0.signed(0) }),
            ("undefined decision label", { $0.byte(RecordTag.decisionBase | RecordTag.decisionLabelBit); $0.varint(0); $0.varint(2); $0.varint(1000); $0.signed(0) }),
            ("ordinal past 32 bits", { $0.byte(RecordTag.decisionBase | RecordTag.decisionOrdinalBit); $0.varint(0); $0.varint(2); $0.varint(1 << 40); $0.signed(0) }),
            ("overlong distance", { $0.byte(RecordTag.decisionBase | RecordTag.decisionFallbackBit); $0.varint(0); $0.varint(2); $0.varint(1); for _ in 0..<10 { $0.byte(0xFF) } }),
        ]
        for (name, record) in bad {
            var outcomes: [[String]] = []
            for room in [1, 300] {  // one byte after: a varint cut by the frame's end reads "end of frame"
                let frame = try TraceFixtures.frame { out in
                    out.byte(RecordTag.symbol)
                    out.varint(1)
                    out.string("key")
                    // Events and decisions that read fine, in the fast path, before the bad one (from
                    // seq 2, so that each one's cause, one event back, is an event).
                    out.byte(RecordTag.seqJump)
                    out.signed(1)
                    for index in 0..<40 {
                        out.byte(RecordTag.timeBit | RecordTag.causeBit | 1 << RecordTag.fieldShift)
                        out.signed(Int64(index % 5) - 2)
                        out.varint(1)
                        out.varint(1 << 2 | FieldTag.int)
                        out.signed(Int64(index) * 1_000)
                        out.byte(RecordTag.decisionBase | RecordTag.decisionOrdinalBit)
                        out.varint(UInt64(index % 3))
                        out.varint(3)
                        out.varint(UInt64(index) * 200)
                        out.signed(0)
                    }
                    record(out)
                    for _ in 0..<room { out.byte(0) }
                }
                let bytes = header + frame
                let slow = TraceFixtures.readAll(bytes)
                let fast = Self.fastEvents(bytes)
                var skipError: TraceError?
                do {
                    let reader = try TraceReader(bytes: bytes, name: "t.simtrace")
                    while try reader.nextSkippingEvents() != nil {}
                } catch {
                    skipError = error
                }
                #expect(fast.events == TraceFixtures.events(slow.records), "\(name), room \(room)")
                #expect(fast.events.count == 40, "\(name), room \(room)")
                let shown = [slow.error, fast.error, skipError].map { error in
                    error.map { "\($0.kind) at \($0.offset): \($0.expected) (\($0.detail))" } ?? "no error"
                }
                #expect(
                    [slow.error, fast.error, skipError].allSatisfy { $0?.kind == .malformedRecord },
                    "\(name), room \(room): \(shown)")
                outcomes.append(shown)
            }
            #expect(outcomes[0] == outcomes[1], "\(name)")
            #expect(Set(outcomes[0]).count == 1, "\(name): \(outcomes[0])")
        }
    }

    /// A file is read in 64 KiB chunks and each frame decoded in one zstd call once its compressed
    /// bytes are all in the buffer (moved to the front, and the buffer grown, when a frame crosses
    /// a chunk or is larger than one). Frames that cross chunks and frames of several chunks, whole
    /// or cut anywhere, must read from the file as they read from memory.
    @Test func framesAcrossReadChunksReadFromAFileAsFromMemory() throws {
        let writer = try TraceWriter(inMemory: "chunks.simtrace", header: TraceFixtures.header, eventsPerFrame: 15_000)
        writer.define(Symbol(raw: 1), "noise")
        writer.define(Symbol(raw: 2), "value")
        var rng = SplitMix64(seed: 26)
        var events: [Event] = []
        for index in 0..<40_000 {
            var fields = EventFields()
            // Values zstd cannot predict: compressed frames of ~100 KiB, larger than a read chunk.
            fields.append(EventField(Symbol(raw: 2), .int(Int64(bitPattern: rng.next()) >> 8)))
            let event = Event(
                seq: UInt64(index + 1), time: Int64(index), lane: .empty, kind: Symbol(raw: 1), subject: .empty,
                fields: fields)
            writer.record(event)
            events.append(event)
        }
        var digest = Digest()
        let texts = ["", "noise", "value"]
        for event in events { digest.mix(event) { Digest.hash(text: texts[Int($0.raw)]) } }
        try writer.finish(
            TraceFooter(
                eventCount: UInt64(events.count), decisionCount: 0, steps: UInt64(events.count),
                endTime: Int64(events.count), verdict: .pass, digest: digest))
        let bytes = writer.bytes
        #expect(bytes.count > 4 * TraceLimits.readChunkBytes)
        let path = TraceFixtures.temporaryPath("chunks.simtrace")
        for cut in [bytes.count, bytes.count - 1, bytes.count * 3 / 5, TraceLimits.readChunkBytes + 7, 300] {
            try Data(bytes[..<cut]).write(to: URL(fileURLWithPath: path))
            let memory = Self.fastEvents(Array(bytes[..<cut]))
            var fromFile: [Event] = []
            var fileError: TraceError?
            var truncated: Bool?
            do {
                let reader = try TraceReader(path: path)
                var event = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
                while try reader.nextEvent(into: &event) { fromFile.append(event) }
                truncated = reader.isTruncated
            } catch {
                fileError = error
            }
            #expect(fromFile == memory.events, "cut at \(cut)")
            #expect(fileError?.kind == memory.error?.kind, "cut at \(cut)")
            #expect(truncated == memory.reader?.isTruncated, "cut at \(cut)")
            if cut == bytes.count {
                #expect(fromFile == events)
                #expect(truncated == false)
            } else {
                #expect(fromFile.count < events.count, "cut at \(cut)")
            }
        }
    }
}
