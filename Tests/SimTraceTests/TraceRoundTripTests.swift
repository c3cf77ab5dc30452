import SimCore
import Testing

@testable import SimTrace

@Suite struct TraceRoundTripTests {
    @Test func readsBackExactlyWhatWasWritten() throws {
        let (bytes, run) = try TraceFixtures.memoryTrace(
            count: 2_000, verdict: .fail(oracle: "input-kept", message: "text lost"))
        let trace = try TraceFile.load(bytes: bytes, name: "round-trip")
        #expect(trace.header == TraceFixtures.header)
        #expect(trace.events == run.events)
        #expect(trace.decisions == run.decisions)
        #expect(trace.symbols == run.symbols)
        #expect(trace.footer == run.footer)
        #expect(trace.footer?.verdict == .fail(oracle: "input-kept", message: "text lost"))
        #expect(!trace.isTruncated)
        #expect(trace.tape == Tape(decisions: run.decisions, symbols: run.symbols))
        #expect(trace.text(Symbol(raw: 1)) == "main")
    }

    @Test func recordsKeepTheirInterleavingOrder() throws {
        let (bytes, run) = try TraceFixtures.memoryTrace(count: 300)
        let trace = try TraceFile.load(bytes: bytes, name: "order")
        // Each decision sits right after the event it follows in the synthetic run.
        var expectedDecisionAfter: [UInt64] = []
        var seen: UInt64 = 0
        for record in trace.records {
            switch record {
            case .event(let e): seen = e.seq
            case .decision: expectedDecisionAfter.append(seen)
            default: break
            }
        }
        #expect(expectedDecisionAfter.count == run.decisions.count)
        #expect(expectedDecisionAfter.allSatisfy { $0 % 4 == 2 })
        let last = try #require(trace.records.last)
        #expect(TraceFixtures.isFooter(last))
    }

    @Test func everyVerdictSurvives() throws {
        let verdicts: [Verdict] = [
            .pass, .fail(oracle: "o", message: "m"), .stepLimit(1000), .timeLimit(5_000_000_000),
            .pending("2 tasks suspended"), .crashed("precondition failed"),
        ]
        for verdict in verdicts {
            let (bytes, _) = try TraceFixtures.memoryTrace(count: 3, verdict: verdict)
            #expect(try TraceFile.load(bytes: bytes, name: "v").footer?.verdict == verdict)
        }
    }

    @Test func manySmallFramesEndAtCheckpoints() throws {
        let (bytes, run) = try TraceFixtures.memoryTrace(count: 1_000, eventsPerFrame: 7)
        let trace = try TraceFile.load(bytes: bytes, name: "frames")
        #expect(trace.events == run.events)
        let checkpoints: [UInt64] = trace.records.compactMap { if case .checkpoint(let e, _) = $0 { e } else { nil } }
        let expected: [UInt64] = (1...(1_000 / 7)).map { UInt64($0 * 7) }
        #expect(checkpoints == expected)
    }

    @Test func emptyRunRoundTrips() throws {
        let writer = try TraceWriter(inMemory: "empty", header: TraceFixtures.header)
        try writer.finish(
            TraceFooter(eventCount: 0, decisionCount: 0, steps: 0, endTime: 0, verdict: .pass, digest: Digest()))
        let trace = try TraceFile.load(bytes: writer.bytes, name: "empty")
        #expect(trace.events.isEmpty && trace.decisions.isEmpty && !trace.isTruncated)
        #expect(
            trace.records == [
                .footer(
                    TraceFooter(eventCount: 0, decisionCount: 0, steps: 0, endTime: 0, verdict: .pass, digest: Digest())
                )
            ])
    }

    @Test func sequenceGapsAndUndefinedSymbolsStillRoundTrip() throws {
        let writer = try TraceWriter(inMemory: "gaps", header: TraceFixtures.header)
        writer.define(Symbol(raw: 3), "three")  // ids 1 and 2 never defined: written as ""
        let events = [
            // Gaps go forward and a cause is an earlier event: a sequence number going back, or a
            // cause that is not in the past, is an inconsistent trace (TraceConsistencyTests).
            Event(seq: 10, time: -5, lane: Symbol(raw: 3), kind: Symbol(raw: 5), subject: .empty, cause: 9),
            Event(seq: 4_000, time: Int64.max, lane: .empty, kind: Symbol(raw: 3), subject: .empty, cause: 1),
        ]
        for event in events { writer.record(event) }
        var digest = Digest()
        let texts = ["", "", "", "three", "", ""]
        for event in events { digest.mix(event) { Digest.hash(text: texts[Int($0.raw)]) } }
        try writer.finish(
            TraceFooter(eventCount: 2, decisionCount: 0, steps: 2, endTime: 0, verdict: .pass, digest: digest))
        let trace = try TraceFile.load(bytes: writer.bytes, name: "gaps")
        #expect(trace.events == events)
        #expect(trace.symbols == texts)
    }

    @Test func writerReportsItsDigestAndCounts() throws {
        let writer = try TraceWriter(inMemory: "d", header: TraceFixtures.header)
        let run = TraceFixtures.record(into: writer, count: 500)
        #expect(writer.eventCount == 500)
        #expect(writer.decisionCount == UInt64(run.decisions.count))
        #expect(writer.digest == run.footer?.digest)
    }

    @Test func finishRejectsAFooterThatDoesNotMatchTheRun() throws {
        let writer = try TraceWriter(inMemory: "bad-footer", header: TraceFixtures.header)
        let run = TraceFixtures.record(into: writer, count: 10)
        var footer = try #require(run.footer)
        footer.eventCount += 1
        #expect(throws: TraceError.self) { try writer.finish(footer) }
        do {
            try writer.finish(footer)
        } catch {
            #expect(error.kind == .malformedRecord)
        }
    }

    @Test func errorDescriptionIsOneLineWithFileOffsetAndExpectation() {
        let error = TraceError(
            .corruptFrame, file: "t.simtrace", offset: 812, expected: "a valid zstd frame", detail: "checksum\nwrong")
        #expect(error.description == "t.simtrace: at byte 812: expected a valid zstd frame (checksum wrong)")
        let inner = TraceError(.malformedRecord, file: "t", offset: 9, inDecompressedStream: true, expected: "a tag")
        #expect(inner.description == "t: at decompressed byte 9: expected a tag")
    }
}
