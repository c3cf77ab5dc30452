import SimCore
import SimTestSupport
import Testing

@testable import SimTrace

/// The trace encoder's buffer invariants trap when broken, each in a child process (an exit test).
@Suite(.enabled(if: isDebugBuild, "assertions are compiled out of release builds"))
struct TraceInvariantTests {
    @Test func writingPastARecordBufferTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let buffer = RecordBuffer(capacity: 4)
            for _ in 0..<5 { buffer.byte(1) }
        }
        expectStandardError(result, contains: "RecordBuffer overflow: byte at 4 of 4")
    }

    @Test func aVarintPastARecordBufferTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let buffer = RecordBuffer(capacity: 4)
            buffer.varint(UInt64.max)
        }
        expectStandardError(result, contains: "RecordBuffer overflow: varint at 0 of 4")
    }

    @Test func anEventRecordWithoutItsSlackTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let encoder = try TraceEncoder(
                output: MemoryOutput(), file: "slack", header: TraceFixtures.header, compressionLevel: 1,
                eventsPerFrame: 100)
            encoder.buffer.count = encoder.buffer.capacity - 8
            encoder.record(Event(seq: 1, time: 0, lane: .empty, kind: .empty, subject: .empty))
        }
        expectStandardError(result, contains: "TraceEncoder: 8 bytes of room for an event record")
    }

    @Test func aDecisionRecordWithoutItsSlackTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let encoder = try TraceEncoder(
                output: MemoryOutput(), file: "slack", header: TraceFixtures.header, compressionLevel: 1,
                eventsPerFrame: 100)
            encoder.buffer.count = encoder.buffer.capacity - 8
            encoder.record(Decision(kind: .choose, chosen: 1, count: 2, fallback: 0, afterEvent: 0))
        }
        expectStandardError(result, contains: "TraceEncoder: 8 bytes of room for a decision record")
    }
}

/// The slack the encoder keeps covers its largest records, and a run at the frame limit stays inside
/// the buffer (every build).
@Suite struct TraceSlackTests {
    @Test func theSlackCoversTheLargestRecords() {
        #expect(TraceEncoder.slackBytes >= TraceEncoder.maxEventRecordBytes)
        #expect(TraceEncoder.slackBytes >= TraceEncoder.maxDecisionRecordBytes)
    }

    @Test func largestEventsRecordWithinTheirBound() throws {
        let encoder = try TraceEncoder(
            output: MemoryOutput(), file: "big", header: TraceFixtures.header, compressionLevel: 1,
            eventsPerFrame: 1_000_000)
        // Symbol ids of three varint bytes; the first record defines them all, so it is not measured.
        let top = Symbol(raw: 1 << 14)
        var fields = EventFields()
        for _ in 0..<EventFields.capacity { fields.append(EventField(top, .int(.min))) }
        encoder.record(Event(seq: 1, time: 0, lane: top, kind: top, subject: top))
        var previousEnd = encoder.buffer.count
        for seq in stride(from: 3, to: 200, by: 2) {
            let time: Int64 = seq % 4 == 1 ? .max : .min
            encoder.record(
                Event(
                    seq: UInt64(seq) << 40, time: time, lane: top, kind: top, subject: top, fields: fields, cause: 1))
            #expect(encoder.buffer.count - previousEnd <= TraceEncoder.maxEventRecordBytes)
            previousEnd = encoder.buffer.count
        }
    }
}

/// The trace reader's cursor starts inside its frame (every read checks only the end), in a child.
@Suite(.enabled(if: isDebugBuild, "assertions are compiled out of release builds"))
struct TraceReaderInvariantTests {
    @Test func aCursorStartingPastItsFrameTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let bytes: [UInt8] = [1, 2, 3, 4]
            bytes.withUnsafeBufferPointer { buffer in
                var cursor = ByteCursor(buffer.baseAddress!, count: 4, position: 5)
                _ = try? cursor.byte("a byte")
            }
        }
        expectStandardError(result, contains: "ByteCursor: position outside its frame")
    }

    @Test func aCursorInsideItsFrameReadsToTheEnd() throws {
        let bytes: [UInt8] = [7, 0x81, 0x01]
        let (first, second, atEnd) = try bytes.withUnsafeBufferPointer { buffer throws(DecodeFailure) in
            var cursor = ByteCursor(buffer.baseAddress!, count: 3, position: 0)
            return (try cursor.byte("a byte"), try cursor.varint("a varint"), cursor.isAtEnd)
        }
        #expect(first == 7 && second == 129 && atEnd)
    }
}
