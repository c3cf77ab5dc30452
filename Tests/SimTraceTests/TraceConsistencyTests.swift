import SimCore
import SimTestSupport
import Testing

@testable import SimTrace

/// Negative space of the trace format: files that are well-formed zstd, checksummed, made of valid
/// records, and still inconsistent — counts that disagree with the records read, decisions that
/// choose outside their options or come after an event not yet read, causes that are not earlier
/// events, sequence numbers that go backwards. Each is rejected with a typed error (never read as a
/// run), on the reader's fast path (a record well inside its frame) and its checked path (a record
/// at the frame's end) alike.
@Suite struct TraceConsistencyTests {
    /// One hand-made frame's records: raw bytes, and how many events and decisions they hold.
    struct Body {
        var events: UInt64 = 0
        var decisions: UInt64 = 0
        var writes: [(RecordBuffer) -> Void] = []

        mutating func event(cause delta: UInt64? = nil) {
            events += 1
            writes.append { buffer in
                buffer.byte(delta == nil ? 0 : RecordTag.causeBit)
                if let delta { buffer.varint(delta) }
            }
        }

        mutating func plainEvents(_ count: Int) { for _ in 0..<count { event() } }

        mutating func jump(_ delta: Int64) { writes.append { $0.byte(RecordTag.seqJump); $0.signed(delta) } }

        mutating func decision(chosen: UInt64 = 1, count: UInt64 = 2, fallback: UInt64? = nil, distance: Int64 = 0) {
            decisions += 1
            writes.append { buffer in
                buffer.byte(RecordTag.decisionBase | (fallback == nil ? 0 : RecordTag.decisionFallbackBit))
                buffer.varint(chosen)
                buffer.varint(count)
                if let fallback { buffer.varint(fallback) }
                buffer.signed(distance)
            }
        }
    }

    /// Header frame, one frame of `body` ending with a checkpoint (its counts given or the true
    /// ones), then the footer frame (its counts given or the true ones).
    static func trace(
        _ body: Body, checkpoint: (UInt64, UInt64)? = nil, footer: (UInt64, UInt64)? = nil
    ) throws -> [UInt8] {
        let counted = checkpoint ?? (body.events, body.decisions)
        let frame = try TraceFixtures.frame { buffer in
            for write in body.writes { write(buffer) }
            buffer.byte(RecordTag.checkpoint)
            buffer.varint(counted.0)
            buffer.varint(counted.1)
            buffer.fixed64(0)
        }
        let ends = footer ?? (body.events, body.decisions)
        let last = try TraceFixtures.frame { buffer in
            TraceFooter(
                eventCount: ends.0, decisionCount: ends.1, steps: 1, endTime: 0, verdict: .pass, digest: Digest()
            ).encode(into: buffer)
        }
        return try TraceFixtures.headerFrame() + frame + last
    }

    /// The error reading `bytes` through `next()` and through `nextSkippingEvents()` (both must agree).
    static func errors(_ bytes: [UInt8]) -> (next: TraceError?, skipping: TraceError?) {
        let next = TraceFixtures.readAll(bytes).error
        var skipping: TraceError?
        do {
            let reader = try TraceReader(bytes: bytes, name: "t.simtrace")
            while try reader.nextSkippingEvents() != nil {}
        } catch {
            skipping = error
        }
        return (next, skipping)
    }

    static var plain: Body {
        var body = Body()
        body.plainEvents(3)
        body.decision()
        body.event()
        body.decision(chosen: 0, count: 3)
        return body
    }

    @Test func theConsistentTraceReadsWhole() throws {
        let (records, reader, error) = TraceFixtures.readAll(try Self.trace(Self.plain))
        #expect(error == nil)
        #expect(reader?.eventCount == 4 && reader?.decisionCount == 2)
        #expect(reader?.footer != nil && reader?.isTruncated == false)
        #expect(records.filter(TraceFixtures.isCheckpoint).count == 1)
        #expect(Self.errors(try Self.trace(Self.plain)).skipping == nil)
    }

    @Test(arguments: RuleTable.product([-1, 0, 1, 7], [-1, 0, 1, 7]))
    func aCheckpointCountsEveryEventAndDecisionReadSoFar(_ events: Int, _ decisions: Int) throws {
        let counts = (UInt64(4 + events), UInt64(2 + decisions))
        let (next, skipping) = Self.errors(try Self.trace(Self.plain, checkpoint: counts))
        if events == 0 && decisions == 0 {
            #expect(next == nil && skipping == nil)
        } else {
            #expect(next?.kind == .malformedRecord, "\(counts): \(String(describing: next))")
            #expect(skipping?.kind == .malformedRecord, "\(counts): \(String(describing: skipping))")
            #expect(next?.description.contains("checkpoint counting 4 events and 2 decisions") == true)
        }
    }

    @Test(arguments: RuleTable.product([-1, 0, 1, 7], [-1, 0, 1, 7]))
    func theFooterCountsEveryEventAndDecisionOfTheTrace(_ events: Int, _ decisions: Int) throws {
        let counts = (UInt64(4 + events), UInt64(2 + decisions))
        let (next, skipping) = Self.errors(try Self.trace(Self.plain, footer: counts))
        if events == 0 && decisions == 0 {
            #expect(next == nil && skipping == nil)
        } else {
            #expect(next?.kind == .malformedRecord, "\(counts): \(String(describing: next))")
            #expect(skipping?.kind == .malformedRecord, "\(counts): \(String(describing: skipping))")
            #expect(next?.description.contains("footer counting 4 events and 2 decisions") == true)
        }
    }

    @Test func checkpointsCountFromTheStartNotPerFrame() throws {
        var second = Body()
        second.plainEvents(2)
        second.decision()
        let first = try TraceFixtures.frame { buffer in
            for write in Self.plain.writes { write(buffer) }
            buffer.byte(RecordTag.checkpoint)
            buffer.varint(4)
            buffer.varint(2)
            buffer.fixed64(0)
        }
        func secondFrame(_ events: UInt64, _ decisions: UInt64) throws -> [UInt8] {
            try TraceFixtures.frame { buffer in
                for write in second.writes { write(buffer) }
                buffer.byte(RecordTag.checkpoint)
                buffer.varint(events)
                buffer.varint(decisions)
                buffer.fixed64(0)
            }
        }
        let header = try TraceFixtures.headerFrame()
        #expect(TraceFixtures.readAll(header + first + (try secondFrame(6, 3))).error == nil)
        let reader = TraceFixtures.readAll(header + first + (try secondFrame(6, 3))).reader
        #expect(reader?.isTruncated == true, "no footer: a prefix, said so")
        #expect(TraceFixtures.readAll(header + first + (try secondFrame(2, 1))).error?.kind == .malformedRecord)
    }

    /// Each inconsistent record, at the frame's end (checked path) and followed by enough plain
    /// events to be decoded on the fast path.
    static var inconsistent: [(String, (inout Body) -> Void)] {
        [
        ("a choice outside its options", { $0.decision(chosen: 2, count: 2) }),
        ("a choice far outside its options", { $0.decision(chosen: 9, count: 3) }),
        ("a fallback outside its options", { $0.decision(chosen: 0, count: 2, fallback: 5) }),
        ("a decision after an event not yet read", { $0.decision(distance: -1) }),
        ("a decision before event zero", { $0.decision(distance: 40) }),
        ("an event caused by itself", { $0.event(cause: 0) }),
        ("an event caused by one before the first", { $0.event(cause: 9) }),
        ("a sequence number that goes back", { body in
            body.jump(-2)
            body.event()
        }),
        ]
    }

    @Test(arguments: 0..<8, [false, true])
    func anInconsistentRecordIsATypedError(_ index: Int, _ fastPath: Bool) throws {
        let (name, add) = Self.inconsistent[index]
        var body = Body()
        body.plainEvents(3)
        add(&body)
        if fastPath { body.plainEvents(40) }
        let (next, skipping) = Self.errors(try Self.trace(body))
        #expect(next?.kind == .malformedRecord, "\(name): \(String(describing: next))")
        #expect(next?.inDecompressedStream == true, "\(name)")
        #expect(skipping?.kind == .malformedRecord, "\(name) (skipping events): \(String(describing: skipping))")
    }

    @Test func theSameRecordsConsistentlyReadFine() throws {
        // The consistent neighbours of the cases above: each must read, so the checks are not too
        // strict.
        var body = Body()
        body.plainEvents(3)
        body.decision(chosen: 1, count: 2)
        body.decision(chosen: 2, count: 3, fallback: 0)
        body.decision(distance: 3)
        body.event(cause: 1)
        body.event(cause: 4)
        body.jump(4)
        body.event()
        body.plainEvents(40)
        let (next, skipping) = Self.errors(try Self.trace(body))
        #expect(next == nil && skipping == nil, "\(String(describing: next)) \(String(describing: skipping))")
        let events = TraceFixtures.events(TraceFixtures.readAll(try Self.trace(body)).records)
        #expect(events[3].cause == 3 && events[4].cause == 1, "causes 1 and 4 back from events 4 and 5")
        #expect(events[5].seq == 10, "a jump of 4 after event 5")
    }
}
