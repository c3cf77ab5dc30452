import Foundation
import SimCore
import Testing

@testable import SimTrace

/// Every damaged file a reader is given — cut anywhere, bytes flipped anywhere (the header frame
/// too), header fields that lie, trailing data, foreign files, oversized length and count fields —
/// reads to its end or stops with a `TraceError` whose description is the one line the command line
/// prints: the file, the offset, and what was expected there. Oversized fields are rejected
/// (`limitExceeded` by bound, or `malformedRecord` when the value cannot be right where it stands)
/// before anything is allocated for them. (The commands' exit codes for them: SimRunKitTests'
/// `DamagedTraceTests`.)
@Suite struct TraceErrorLineTests {
    struct Damaged {
        var name: String
        var bytes: [UInt8]
    }

    /// The damaged files, deterministically, from a trace with a checkpoint every 8 events.
    static func damaged() throws -> [Damaged] {
        let (bytes, run) = try TraceFixtures.memoryTrace(count: 120, checkpointEvery: 8)
        let headerEnd = Int(run.boundaries[0])
        var rng = SplitMix64(seed: 7)
        var list: [Damaged] = []
        for boundary in run.boundaries.map(Int.init) {
            for cut in [boundary - 1, boundary, boundary + 1] where cut > 0 && cut < bytes.count {
                list.append(.init(name: "cut\(cut)", bytes: Array(bytes.prefix(cut))))
            }
        }
        for _ in 0..<150 {
            let cut = rng.below(bytes.count)
            list.append(.init(name: "rcut\(cut)", bytes: Array(bytes.prefix(cut))))
        }
        for index in 0..<320 {
            var flipped = bytes
            let span = index % 3 == 0 ? headerEnd : bytes.count
            for _ in 0..<(1 + rng.below(3)) { flipped[rng.below(span)] ^= UInt8(1 + rng.below(255)) }
            list.append(.init(name: "flip\(index)", bytes: flipped))
        }
        let body = Array(bytes[headerEnd...])
        for version: UInt32 in [0, TraceHeader.currentFormatVersion + 1, 77, .max] {
            var header = TraceFixtures.header
            header.formatVersion = version
            list.append(.init(name: "header-version\(version)", bytes: try TraceFixtures.headerFrame(header) + body))
        }
        list.append(.init(name: "garbage", bytes: bytes + Array("junk".utf8)))
        list.append(.init(name: "twice", bytes: bytes + bytes))
        let header = try TraceFixtures.headerFrame()
        var random = (0..<3_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        random[0] = 0x41
        list += [
            .init(name: "empty", bytes: []),
            .init(name: "text", bytes: Array("hello, I am a text file\n".utf8)),
            .init(name: "random", bytes: random),
            .init(name: "zstd-magic-only", bytes: [0x28, 0xB5, 0x2F, 0xFD]),
            .init(
                name: "zstd-not-a-trace",
                bytes: try TraceFixtures.frame { out in for byte in Array("just some text, compressed".utf8) { out.byte(byte) } }),
            .init(name: "zstd-random", bytes: try TraceFixtures.frame { out in for byte in random { out.byte(byte) } }),
            .init(name: "skippable-only", bytes: [0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4]),
            .init(name: "header-only", bytes: header),
        ]
        for (label, build) in oversized {
            list.append(.init(name: "oversized-\(label)", bytes: header + (try TraceFixtures.frame(build))))
        }
        list.append(
            .init(
                name: "oversized-options",
                bytes: try TraceFixtures.frame { out in
                    for b in TraceHeader.magic { out.byte(b) }
                    out.fixed32(1)
                    for _ in 0..<3 { out.string("x") }
                    out.fixed64(1)
                    out.string("fifo")
                    out.varint(UInt64.max >> 1)
                }))
        list.append(
            .init(
                name: "oversized-header-string",
                bytes: try TraceFixtures.frame { out in
                    for b in TraceHeader.magic { out.byte(b) }
                    out.fixed32(1)
                    out.varint(UInt64.max >> 2)
                }))
        return list
    }

    /// Records whose length or count field is far past any bound.
    static var oversized: [(String, (RecordBuffer) -> Void)] {
        [
        ("symbol-length", { $0.byte(RecordTag.symbol); $0.varint(1); $0.varint(1 << 40); $0.byte(0x41) }),
        ("symbol-id", { $0.byte(RecordTag.symbol); $0.varint(1 << 50); $0.string("x") }),
        ("field-count", { $0.byte(RecordTag.explicitFieldCount << RecordTag.fieldShift); $0.varint(1 << 60) }),
        ("seq-jump", { $0.byte(RecordTag.seqJump); $0.varint(UInt64.max); $0.byte(0) }),
        ("decision-count", { $0.byte(RecordTag.decisionBase); $0.varint(0); $0.varint(1 << 40) }),
        (
            "checkpoint-count",
            { $0.byte(RecordTag.checkpoint); $0.varint(UInt64.max >> 1); $0.varint(1 << 62); $0.fixed64(0) }
        ),
        (
            "footer-message",
            { out in
                out.byte(RecordTag.footer)
                for _ in 0..<4 { out.varint(0) }
                out.byte(1)
                out.string("o")
                out.varint(1 << 45)
            }
        ),
        ]
    }

    @Test func everyDamagedFileReadsToItsEndOrStopsWithOneLineNamingFileOffsetAndExpectation() throws {
        let damaged = try Self.damaged()
        #expect(damaged.count >= 500)
        var kinds: [String: Int] = [:]
        for trace in damaged {
            let name = "\(trace.name).simtrace"
            let (_, reader, error) = TraceFixtures.readAll(trace.bytes, name: name)
            guard let error else {
                // Read to its end: whole, or cut short at a frame (only what was cut can be short).
                let truncated = reader?.isTruncated ?? false
                #expect(
                    !truncated || trace.name.contains("cut") || trace.name == "header-only", "\(name) reads as truncated")
                kinds[truncated ? "truncated" : "whole", default: 0] += 1
                continue
            }
            kinds["\(error.kind)", default: 0] += 1
            let line = error.description
            #expect(!line.contains("\n"), "\(name): \(line)")
            #expect(line.hasPrefix("\(name): "), "\(name): \(line)")
            #expect(line.contains(": at byte ") || line.contains(": at decompressed byte "), "\(name): \(line)")
            #expect(line.contains(": expected ") && !error.expected.isEmpty, "\(name): \(line)")
            if trace.name.hasPrefix("oversized-") {
                #expect(
                    error.kind == .limitExceeded || error.kind == .malformedRecord,
                    "\(name): rejected before anything is allocated: \(error.kind) \(line)")
            }
            if trace.name.hasPrefix("header-version") {
                #expect(error.kind == .unsupportedVersion, "\(name): \(line)")
            }
        }
        for name in ["garbage", "twice", "empty", "text", "random", "zstd-magic-only", "zstd-not-a-trace", "skippable-only"] {
            let trace = try #require(damaged.first { $0.name == name })
            #expect(TraceFixtures.readAll(trace.bytes).error != nil, "\(name) is no trace")
        }
        #expect(kinds["whole"] == nil || kinds["whole"]! < 10, "nearly every damage is seen: \(kinds)")
    }
}
