import Foundation
import SimCore
import SimEngine
import SimScenarios
import SimTestSupport
import Testing

@testable import SimTrace

/// Damaged traces given to every trace-reading command through the `simrun` binary, as users run
/// it: every one ends quickly with 0/1 (2 for `replay`: a readable trace, truncated prefix, or
/// well-formed but diverging) or 65 with one line naming the file, the offset and what was
/// expected. Every hand-made case runs, and a deterministic share of the cuts and flips. (The
/// reader's typed errors over all of them: SimTraceTests' `TraceErrorLineTests`, `TraceBadInputTests`,
/// `TraceTruncationTests`, `TraceConsistencyTests`.)
@Suite(.serialized) struct DamagedTraceTests {
    /// The commands under test; adding one (e.g. `export`) is one line.
    static let commands: [TraceCommand] = [
        // A damaged trace never replays to 0: 1 when it diverges, 2 when only a prefix was compared
        // (truncated), 65 when it cannot be read.
        .init("replay", [1, 2, 65]) { ["replay", $0] },
        .init("show", [0, 65]) { ["show", $0] },
        .init("shrink", [0, 1, 65]) { ["shrink", $0, "-o", $0 + ".shrunk"] },
        .init("export", [0, 65]) { ["export", $0, "--format", "perfetto", "-o", $0 + ".json"] },
    ]

    /// A command that reads a trace, the exit codes it may end with, and its arguments for a path.
    struct TraceCommand: Sendable {
        var name: String
        var allowed: Set<Int32>
        var arguments: @Sendable (String) -> [String]
        init(_ name: String, _ allowed: Set<Int32>, _ arguments: @escaping @Sendable (String) -> [String]) {
            self.name = name
            self.allowed = allowed
            self.arguments = arguments
        }
    }

    struct Damaged {
        var name: String
        var bytes: [UInt8]
        /// Always run through the binary too (hand-made and rare cases).
        var viaCLI: Bool
    }

    /// A recorded trace with frames ending every few events, and where each frame ends.
    struct Source {
        var name: String
        var bytes: [UInt8]
        var header: TraceHeader
        var boundaries: [Int]
    }

    final class BoundarySink: EventSink {
        let writer: TraceWriter
        var boundaries: Set<Int> = []
        init(_ writer: TraceWriter) { self.writer = writer }
        func define(_ symbol: Symbol, _ text: String) { writer.define(symbol, text) }
        func record(_ event: Event) {
            writer.record(event)
            boundaries.insert(Int(writer.bytesWritten))
        }
        func record(_ decision: Decision) { writer.record(decision) }
    }

    static func source(_ scenario: Scenario, variant: String, seed: UInt64, strategy: StrategySpec, every: Int)
        throws -> Source
    {
        let plan = RunPlan.probed(scenario: scenario, variant: variant, strategy: strategy)
        // A failing run, so that `shrink` has a failure to work on.
        var seed = seed
        while !plan.run(seed: seed, strategy: plan.makeStrategy()).verdict.isFailure { seed += 1 }
        let header = TraceHeader(
            toolVersion: "test", scenario: scenario.name, variant: variant, seed: seed,
            strategy: strategy.description, options: plan.options.map { TraceOption($0.0, $0.1) })
        let writer = try TraceWriter(inMemory: scenario.name, header: header, eventsPerFrame: every)
        let sink = BoundarySink(writer)
        let result = plan.run(seed: seed, strategy: plan.makeStrategy(), sink: sink)
        try writer.finish(Recorder.footer(for: result))
        let headerEnd = try TraceWriter(inMemory: "h", header: header).bytes.count
        let boundaries = ([headerEnd] + sink.boundaries.sorted()).filter { $0 < writer.bytes.count }
        return Source(name: scenario.name, bytes: writer.bytes, header: header, boundaries: boundaries)
    }

    static func frame(_ build: (RecordBuffer) -> Void) throws -> [UInt8] {
        let buffer = RecordBuffer(capacity: 64)
        buffer.reserve(1 << 16)  // appends are unchecked: room first
        build(buffer)
        return Array(try FrameCompressor(level: 1, file: "test").compress(buffer.bytes, file: "test", offset: 0))
    }

    /// Every damaged trace, deterministically.
    static func damagedTraces() throws -> [Damaged] {
        let sources = [
            try source(CounterRace.scenario, variant: "buggy", seed: 3, strategy: .init(kind: .random), every: 2),
            try source(LostInputNavigation.scenario, variant: "buggy", seed: 1, strategy: .init(kind: .pct), every: 8),
        ]
        var rng = SplitMix64(seed: 7)
        var list: [Damaged] = []
        for source in sources {
            let bytes = source.bytes
            let headerEnd = source.boundaries[0]
            // Cut at every checkpoint, one byte either side of it, and at random bytes.
            for boundary in source.boundaries {
                for cut in [boundary - 1, boundary, boundary + 1] where cut > 0 && cut < bytes.count {
                    list.append(.init(name: "\(source.name)-cut\(cut)", bytes: Array(bytes.prefix(cut)), viaCLI: false))
                }
            }
            for _ in 0..<150 {
                let cut = rng.below(bytes.count)
                list.append(.init(name: "\(source.name)-rcut\(cut)", bytes: Array(bytes.prefix(cut)), viaCLI: false))
            }
            // Random byte flips anywhere, and inside the header frame.
            for index in 0..<320 {
                var damaged = bytes
                let span = index % 3 == 0 ? headerEnd : bytes.count
                for _ in 0..<(1 + rng.below(3)) { damaged[rng.below(span)] ^= UInt8(1 + rng.below(255)) }
                list.append(.init(name: "\(source.name)-flip\(index)", bytes: damaged, viaCLI: false))
            }
            // Tampered header fields (re-encoded, so the frame is valid and only the field lies).
            var tampered: [(String, TraceHeader)] = []
            for version: UInt32 in [0, TraceHeader.currentFormatVersion + 1, 77, .max] {
                var h = source.header
                h.formatVersion = version
                tampered.append(("version\(version)", h))
            }
            let lies: [(String, (inout TraceHeader) -> Void)] = [
                ("scenario", { $0.scenario = "no-such-scenario" }), ("variant", { $0.variant = "no-such-variant" }),
                ("seed", { $0.seed &+= 1 }), ("strategy", { $0.strategy = "bogus:x=y" }),
                ("emptyscenario", { $0.scenario = "" }),
            ]
            for (label, lie) in lies {
                var h = source.header
                lie(&h)
                tampered.append((label, h))
            }
            let body = Array(bytes[headerEnd...])
            for (label, header) in tampered {
                let frame = try TraceWriter(inMemory: "h", header: header).bytes
                list.append(.init(name: "\(source.name)-header-\(label)", bytes: frame + body, viaCLI: true))
            }
            // Whole trace followed by more: garbage, another trace, a stray frame.
            list.append(.init(name: "\(source.name)-garbage", bytes: bytes + Array("junk".utf8), viaCLI: true))
            list.append(.init(name: "\(source.name)-twice", bytes: bytes + bytes, viaCLI: true))
        }
        let header = try frame { sources[0].header.encode(into: $0) }
        // Foreign files.
        var random = (0..<3_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        random[0] = 0x41
        let notATrace = try frame { out in for byte in Array("just some text, compressed".utf8) { out.byte(byte) } }
        list += [
            .init(name: "empty", bytes: [], viaCLI: true),
            .init(name: "text", bytes: Array("hello, I am a text file\n".utf8), viaCLI: true),
            .init(name: "random", bytes: random, viaCLI: true),
            .init(name: "zstd-magic-only", bytes: [0x28, 0xB5, 0x2F, 0xFD], viaCLI: true),
            .init(name: "zstd-not-a-trace", bytes: notATrace, viaCLI: true),
            .init(name: "zstd-random", bytes: try frame { out in for byte in random { out.byte(byte) } }, viaCLI: true),
            .init(name: "skippable-only", bytes: [0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4], viaCLI: true),
            .init(name: "header-only", bytes: header, viaCLI: true),
        ]
        // Oversized length and count fields: rejected by bound, never allocated.
        let oversized: [(String, (RecordBuffer) -> Void)] = [
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
        for (label, build) in oversized {
            list.append(.init(name: "oversized-\(label)", bytes: header + (try frame(build)), viaCLI: true))
        }
        let manyOptions = try frame { out in
            for b in TraceHeader.magic { out.byte(b) }
            out.fixed32(1)
            for _ in 0..<3 { out.string("x") }
            out.fixed64(1)
            out.string("fifo")
            out.varint(UInt64.max >> 1)
        }
        list.append(.init(name: "oversized-options", bytes: manyOptions, viaCLI: true))
        let longHeaderString = try frame { out in
            for b in TraceHeader.magic { out.byte(b) }
            out.fixed32(1)
            out.varint(UInt64.max >> 2)
        }
        list.append(.init(name: "oversized-header-string", bytes: longHeaderString, viaCLI: true))
        // Findings of tools/fuzz-trace-reader.sh, kept as regression inputs.
        for (name, bytes) in FuzzerFindings.all {
            list.append(.init(name: "libfuzzer-\(name)", bytes: bytes, viaCLI: true))
        }
        return list
    }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderrLines: [String]
    }

    static func checkOutcome(
        _ outcome: Outcome, command: TraceCommand, path: String, readable: TraceError?, truncated: Bool, how: String
    ) {
        let label = "\(command.name) \(path) (\(how))"
        // One tampering is no damage to the run: a header seed off by one, where the schedule comes
        // from the tape and the model draws no random numbers, replays every event, verdict and
        // digest as recorded; identical (0) is the truth there.
        let allowed = path.hasSuffix("-header-seed.simtrace") ? command.allowed.union([0]) : command.allowed
        #expect(allowed.contains(outcome.status), "\(label): exit \(outcome.status) \(outcome.stderrLines)")
        if let readable {
            #expect(outcome.status == (readable.kind == .missingFile ? 66 : 65), "\(label): \(readable)")
        }
        if outcome.status == 65 {
            #expect(outcome.stderrLines.count == 1, "\(label): \(outcome.stderrLines)")
            let line = outcome.stderrLines.first ?? ""
            #expect(line.contains(path), "\(label): \(line)")
            #expect(line.contains("at byte") || line.contains("at decompressed byte"), "\(label): \(line)")
            #expect(line.contains("expected"), "\(label): \(line)")
        }
        if readable == nil && truncated {
            switch command.name {
            case "show":
                #expect(outcome.status == 0 && outcome.stdout.contains("truncated"), "\(label): \(outcome.stdout)")
            case "replay":
                #expect(outcome.status == 2, "\(label): \(outcome.stdout)")
                #expect(outcome.stdout.contains("identical up to the truncation point"), "\(label): \(outcome.stdout)")
            case "shrink":
                #expect(outcome.status == 65, "\(label)")
            default: break
            }
        }
    }

    /// What the reader says about the bytes: nil when they read to the end.
    static func readError(_ bytes: [UInt8]) -> (TraceError?, Bool) {
        do {
            let reader = try TraceReader(bytes: bytes, name: "probe")
            while try reader.next() != nil {}
            return (nil, reader.isTruncated)
        } catch {
            return (error, false)
        }
    }

    @Test func everyDamagedTraceEndsWithOneLineAndADistinctExitCode() throws {
        let directory = try makeTemporaryDirectory("damaged-traces")
        defer { try? FileManager.default.removeItem(at: directory) }
        var viaCLI: [(String, [UInt8])] = []
        for (index, trace) in try Self.damagedTraces().enumerated() where trace.viaCLI || index % 9 == 0 {
            let path = directory.appendingPathComponent("\(trace.name).simtrace").path
            try Data(trace.bytes).write(to: URL(fileURLWithPath: path))
            viaCLI.append((path, trace.bytes))
        }
        #expect(viaCLI.count >= 140, "the hand-made cases and a ninth of the cuts and flips")
        try Self.runThroughTheBinary(viaCLI)
    }

    /// Runs every command on each trace through the `simrun` binary, a few processes at a time.
    static func runThroughTheBinary(_ traces: [(String, [UInt8])]) throws {
        let jobs = traces.flatMap { trace in commands.map { (trace, $0) } }
        let failures = LockedList()
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for index in stride(from: lane, to: jobs.count, by: 4) {
                let ((path, bytes), command) = jobs[index]
                let (error, truncated) = readError(bytes)
                let name = URL(fileURLWithPath: path).lastPathComponent
                let semantic = error == nil && !truncated && (name.contains("header-") || name.contains("twice"))
                do {
                    let start = Date()
                    let output = try SimrunProcess.run(command.arguments(path), timeout: 20)
                    if Date().timeIntervalSince(start) > 10 { failures.add("\(command.name) \(name): slow") }
                    let lines = output.stderr.split(separator: "\n").map(String.init)
                    checkOutcome(
                        Outcome(status: output.status, stdout: output.stdout, stderrLines: lines), command: command,
                        path: path, readable: semantic ? nil : error, truncated: truncated, how: "simrun binary")
                    if output.status > 128 || output.stderr.contains("Fatal error") || output.stderr.contains("crashed")
                    {
                        failures.add("\(command.name) \(name): \(output.status) \(output.stderr)")
                    }
                } catch {
                    failures.add("\(command.name) \(name): \(error)")
                }
            }
        }
        #expect(failures.items.isEmpty, "\(failures.items)")
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        // Linux carries the parent's high-water mark into a child spawned with posix_spawn (the child
        // runs on the parent's memory until exec), so a children's peak no higher than this test
        // process's own says nothing about the children: only one above both counts.
        var own = rusage()
        getrusage(RUSAGE_SELF.rawValue, &own)
        #expect(
            usage.ru_maxrss < 400_000 || usage.ru_maxrss <= own.ru_maxrss,
            "a child's peak memory was \(usage.ru_maxrss) KiB (this process's: \(own.ru_maxrss) KiB)")
    }

    /// `replay --bisect` on a damaged trace stops the bisection (128, above 127): no code from 1 to 127,
    /// which `git bisect run` would read as "bad". The code is returned, not thrown as a failure whose
    /// kind would turn it into 1.
    @Test func aDamagedTraceStopsABisection() throws {
        let directory = try makeTemporaryDirectory("bisect-damaged")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("damaged.simtrace").path
        try Data("not a trace at all".utf8).write(to: URL(fileURLWithPath: path))
        let output = try SimrunProcess.run(["replay", "--bisect", path])
        #expect(output.status == 128, "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
        let json = try SimrunProcess.run(["replay", "--bisect", path, "--json"])
        #expect(json.status == 128)
        #expect(json.stdout.contains("\"exitCode\":128"), "\(json.stdout)")
        #expect(try SimrunProcess.run(["replay", path]).status == 65)
    }

    @Test func aMissingTraceIsExit66() throws {
        for command in Self.commands {
            let output = try SimrunProcess.run(command.arguments("/nonexistent/t.simtrace"))
            #expect(output.status == 66, "\(command.name): \(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1)
        }
    }
}

final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var items: [String] = []
    func add(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
}
