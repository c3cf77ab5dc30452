import Foundation
import SimCore
import Testing

@testable import SimTrace

@Suite struct TraceBadInputTests {
    static func kind(of bytes: [UInt8]) -> TraceError.Kind? {
        TraceFixtures.readAll(bytes).error?.kind
    }

    @Test func emptyFileIsATruncatedHeader() {
        let error = TraceFixtures.readAll([]).error
        #expect(error?.kind == .truncatedHeader)
        #expect(error?.description.contains("file is empty") == true)
    }

    @Test func nonZstdBytesAreNotZstd() {
        #expect(Self.kind(of: Array("hello, this is a text file\n".utf8)) == .notZstd)
        #expect(Self.kind(of: [0x28, 0xB5, 0x2F, 0x00, 1, 2, 3]) == .notZstd)
        #expect(Self.kind(of: [0x41]) == .notZstd)
        #expect(Self.kind(of: [0x28, 0xB5]) == .truncatedHeader, "a prefix of the zstd magic is a cut file")
    }

    @Test func zstdOfSomethingElseIsNotATrace() throws {
        var rng = SplitMix64(seed: 3)
        let random = (0..<4_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let (compressed, status) = try TraceFixtures.zstd(["-c", "-q"], input: random)
        #expect(status == 0)
        let error = TraceFixtures.readAll(compressed).error
        #expect(error?.kind == .notATrace)
        #expect(error?.inDecompressedStream == true)
        #expect(Self.kind(of: try TraceFixtures.frame { $0.byte(0x53) }) == .notATrace)
    }

    @Test func futureFormatVersionIsUnsupported() throws {
        var future = TraceFixtures.header
        future.formatVersion = TraceHeader.currentFormatVersion + 1
        let writer = try TraceWriter(inMemory: "future", header: future)
        writer.checkpoint()
        let error = TraceFixtures.readAll(writer.bytes).error
        #expect(error?.kind == .unsupportedVersion)
        #expect(error?.description.contains("format version \(TraceHeader.currentFormatVersion + 1)") == true)
    }

    @Test func missingFileIsMissing() {
        #expect(throws: TraceError.self) { try TraceReader(path: "/nonexistent/dir/t.simtrace") }
        do {
            _ = try TraceFile.load(path: "/nonexistent/dir/t.simtrace")
        } catch {
            #expect(error.kind == .missingFile)
            #expect(error.file == "/nonexistent/dir/t.simtrace")
        }
    }

    @Test func directoryIsUnreadable() {
        do {
            _ = try TraceReader(path: "/tmp")
            Issue.record("a directory must not read as a trace")
        } catch {
            #expect(error.kind == .unreadable)
        }
    }

    @Test func oversizedLengthFieldIsRejectedWithoutAllocating() throws {
        let header = try TraceFixtures.headerFrame()
        let hugeSymbol = try TraceFixtures.frame { out in
            out.byte(RecordTag.symbol)
            out.varint(1)
            out.varint(1 << 40)  // a terabyte-long symbol
            out.byte(0x41)
        }
        #expect(Self.kind(of: header + hugeSymbol) == .limitExceeded)
        let pastEnd = try TraceFixtures.frame { out in
            out.byte(RecordTag.symbol)
            out.varint(1)
            out.varint(1_000)  // within limits but longer than the frame
            out.byte(0x41)
        }
        #expect(Self.kind(of: header + pastEnd) == .malformedRecord)
        let manyOptions = try TraceFixtures.frame { out in
            for b in TraceHeader.magic { out.byte(b) }
            out.fixed32(1)
            for _ in 0..<3 { out.string("x") }
            out.fixed64(1)
            out.string("fifo")
            out.varint(UInt64.max >> 1)
        }
        #expect(Self.kind(of: manyOptions) == .limitExceeded)
    }

    @Test func oversizedFrameIsRejected() throws {
        let header = try TraceFixtures.headerFrame()
        let big = try TraceFixtures.frame { out in
            for _ in 0..<(TraceLimits.maxFrameBytes + 10) { out.byte(0xC0) }
        }
        #expect(Self.kind(of: header + big) == .limitExceeded)
    }

    @Test func malformedRecordsAreTyped() throws {
        let header = try TraceFixtures.headerFrame()
        let cases: [(RecordBuffer) -> Void] = [
            { $0.byte(0xFF) },  // unknown tag
            {
                $0.byte(RecordTag.laneBit)
                $0.varint(9)
            },  // undefined symbol
            { $0.byte(0) },  // event but no checkpoint ends the frame
            {
                $0.byte(RecordTag.checkpoint)
                $0.varint(5)
                $0.varint(0)
                $0.fixed64(0)
            },  // wrong count
            {
                $0.byte(RecordTag.checkpoint)
                $0.varint(0)
                $0.varint(0)
                $0.fixed64(0)
                $0.byte(0)
            },  // not last
            {
                $0.byte(RecordTag.explicitFieldCount << RecordTag.fieldShift)
                $0.varint(9)
            },  // 9 fields
            {
                $0.byte(RecordTag.timeBit)
                for _ in 0..<11 { $0.byte(0xFF) }
            },  // overlong varint
            {
                $0.byte(RecordTag.symbol)
                $0.varint(5)
                $0.string("x")
            },  // id skips ahead
            {
                $0.byte(RecordTag.symbol)
                $0.varint(1)
                $0.byte(2)
                $0.byte(0xC3)
                $0.byte(0x28)
            },  // bad UTF-8
        ]
        for (index, build) in cases.enumerated() {
            let frame = try TraceFixtures.frame(build)
            let error = TraceFixtures.readAll(header + frame).error
            #expect(error?.kind == .malformedRecord, "case \(index): \(String(describing: error))")
            #expect(error?.inDecompressedStream == true)
        }
    }

    @Test func dataAfterTheFooterIsMalformed() throws {
        let (bytes, _) = try TraceFixtures.memoryTrace(count: 10)
        let extra = try TraceFixtures.frame { $0.byte(RecordTag.checkpoint) }
        #expect(Self.kind(of: bytes + extra) == .malformedRecord)
        #expect(Self.kind(of: bytes + [0x28, 0xB5]) == .malformedRecord)
    }

    @Test func digestMismatchIsReportedOnLoad() throws {
        let output = MemoryOutput()
        let encoder = try TraceEncoder(
            output: output, file: "lie", header: TraceFixtures.header, compressionLevel: 1, eventsPerFrame: 100)
        encoder.define(Symbol(raw: 1), "tick")
        for seq in 1...10 {
            encoder.record(Event(seq: UInt64(seq), time: 0, lane: .empty, kind: Symbol(raw: 1), subject: .empty))
        }
        try encoder.finish(
            TraceFooter(
                eventCount: 10, decisionCount: 0, steps: 1, endTime: 0, verdict: .pass, digest: Digest(value: 7)),
            verifying: false)
        // The streaming reader does not recompute digests; TraceFile does.
        #expect(TraceFixtures.readAll(output.bytes).error == nil)
        do {
            _ = try TraceFile.load(bytes: output.bytes, name: "lie")
            Issue.record("a wrong digest must not load")
        } catch {
            #expect(error.kind == .malformedRecord)
            #expect(error.description.contains("digest mismatch"))
        }
    }

    @Test func footerCountMismatchIsMalformed() throws {
        let output = MemoryOutput()
        let encoder = try TraceEncoder(
            output: output, file: "lie", header: TraceFixtures.header, compressionLevel: 1, eventsPerFrame: 100)
        try encoder.finish(
            TraceFooter(eventCount: 3, decisionCount: 0, steps: 1, endTime: 0, verdict: .pass, digest: Digest()),
            verifying: false)
        #expect(Self.kind(of: output.bytes) == .malformedRecord)
    }

    @Test func errorsRepeatAfterTheFirst() throws {
        let header = try TraceFixtures.headerFrame()
        let reader = try TraceReader(bytes: header + (try TraceFixtures.frame { $0.byte(0xFF) }), name: "r")
        #expect(throws: TraceError.self) { try reader.next() }
        #expect(throws: TraceError.self) { try reader.next() }
    }
}
