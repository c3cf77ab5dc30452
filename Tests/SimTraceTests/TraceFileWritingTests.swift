import Foundation
import SimCore
import Testing

@testable import SimTrace

@Suite struct TraceFileWritingTests {
    static func writeFile(_ path: String, count: Int = 3_000, eventsPerFrame: Int = 500) throws -> (
        TraceWriter, TraceFixtures.Run
    ) {
        let writer = try TraceWriter(path: path, header: TraceFixtures.header, eventsPerFrame: eventsPerFrame)
        let run = TraceFixtures.record(into: writer, count: count)
        try writer.finish(try #require(run.footer))
        return (writer, run)
    }

    @Test func writesThroughATemporaryNameAndRenames() throws {
        let path = TraceFixtures.temporaryPath("t.simtrace")
        let directory = (path as NSString).deletingLastPathComponent
        let writer = try TraceWriter(path: path, header: TraceFixtures.header)
        let run = TraceFixtures.record(into: writer, count: 100)
        #expect(!FileManager.default.fileExists(atPath: path), "nothing under the final name until finish")
        let during = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(during.count == 1 && during[0].hasPrefix("t.simtrace.tmp-"))
        try writer.finish(try #require(run.footer))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["t.simtrace"])
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(UInt64(size ?? 0) == writer.bytesWritten)
        let trace = try TraceFile.load(path: path)
        #expect(trace.events == run.events)
        #expect(trace.name == path)
    }

    @Test func abandonDeletesTheTemporaryFile() throws {
        let path = TraceFixtures.temporaryPath("gone.simtrace")
        let directory = (path as NSString).deletingLastPathComponent
        let writer = try TraceWriter(path: path, header: TraceFixtures.header)
        _ = TraceFixtures.record(into: writer, count: 10)
        writer.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func failedFinishLeavesNoFile() throws {
        let path = TraceFixtures.temporaryPath("bad.simtrace")
        let directory = (path as NSString).deletingLastPathComponent
        let writer = try TraceWriter(path: path, header: TraceFixtures.header)
        _ = TraceFixtures.record(into: writer, count: 10)
        #expect(throws: TraceError.self) {
            try writer.finish(
                TraceFooter(eventCount: 0, decisionCount: 0, steps: 0, endTime: 0, verdict: .pass, digest: Digest()))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func unwritableDirectoryIsATypedError() {
        #expect(throws: TraceError.self) {
            try TraceWriter(path: "/nonexistent/dir/t.simtrace", header: TraceFixtures.header)
        }
    }

    @Test func zstdCommandLineDecodesTheTrace() throws {
        let path = TraceFixtures.temporaryPath("cli.simtrace")
        let (writer, _) = try Self.writeFile(path)
        let (output, status) = try TraceFixtures.zstd(["-dc", "-q", path])
        #expect(status == 0)
        #expect(UInt64(output.count) == writer.rawBytesWritten)
        #expect(Array(output.prefix(8)) == TraceHeader.magic)
        let (_, checkStatus) = try TraceFixtures.zstd(["-t", "-q", path])
        #expect(checkStatus == 0, "zstd -t verifies the frame checksums")
    }

    @Test func identicalRunsWriteIdenticalDecompressedBytes() throws {
        let first = TraceFixtures.temporaryPath("a.simtrace")
        let second = TraceFixtures.temporaryPath("b.simtrace")
        _ = try Self.writeFile(first)
        _ = try Self.writeFile(second)
        let (a, _) = try TraceFixtures.zstd(["-dc", "-q", first])
        let (b, _) = try TraceFixtures.zstd(["-dc", "-q", second])
        #expect(!a.isEmpty && a == b)
    }

    @Test func fileReaderMatchesMemoryReaderAcrossChunkBoundaries() throws {
        // Enough events that the file spans many 64 KiB read chunks.
        let path = TraceFixtures.temporaryPath("big.simtrace")
        let (writer, run) = try Self.writeFile(path, count: 200_000, eventsPerFrame: 10_000)
        #expect(writer.bytesWritten > UInt64(TraceLimits.readChunkBytes))
        let trace = try TraceFile.load(path: path)
        #expect(trace.events.count == run.events.count)
        #expect(trace.events == run.events)
        #expect(trace.footer == run.footer)
    }
}
