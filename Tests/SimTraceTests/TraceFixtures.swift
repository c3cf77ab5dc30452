import Foundation
import SimCore
import SimTestSupport

@testable import SimTrace

/// Synthetic traces and helpers shared by the SimTrace tests.
enum TraceFixtures {
    static let header = TraceHeader(
        toolVersion: "test", scenario: "lost-input", variant: "buggy", seed: 42, strategy: "pct:depth=3",
        options: [TraceOption("jobs", "1"), TraceOption("ünïcode", "✓")])

    /// What a synthetic run recorded, to compare a read-back against.
    struct Run {
        var symbols: [String] = [""]
        var events: [Event] = []
        var decisions: [Decision] = []
        /// `events.count` at each checkpoint the writer was asked for.
        var checkpointEvents: [Int] = []
        /// `bytesWritten` after the header frame and after each checkpoint: the frame boundaries.
        var boundaries: [UInt64] = []
        var footer: TraceFooter?
    }

    /// Records `count` events that cycle through a few kinds, with every field type, some decisions,
    /// and a checkpoint every `checkpointEvery` events.
    static func record(
        into writer: TraceWriter, count: Int, checkpointEvery: Int = 0, seed: UInt64 = 1, verdict: Verdict = .pass
    ) -> Run {
        var run = Run()
        var rng = SplitMix64(seed: seed)
        run.boundaries.append(writer.bytesWritten)
        func define(_ text: String) -> Symbol {
            if let index = run.symbols.firstIndex(of: text) { return Symbol(raw: UInt32(index)) }
            let symbol = Symbol(raw: UInt32(run.symbols.count))
            run.symbols.append(text)
            writer.define(symbol, text)
            return symbol
        }
        let lanes = ["main", "background.1", "microtask"].map(define)
        let kinds = ["txn.commit", "view.update", "input.type", "sched.pick"].map(define)
        let keyCount = define("count")
        let keyPhase = define("phase")
        let keyOK = define("ok")
        let keyDelta = define("delta")
        var time: Int64 = 0
        for index in 0..<count {
            let seq = UInt64(index + 1)
            if index % 5 == 0 { time += 1_000_000 }
            if index % 97 == 13 { time -= 3 }  // time may repeat or step back in synthetic data
            var fields = EventFields()
            switch index % 5 {
            case 0: break
            case 1: fields.append(EventField(keyCount, .int(Int64(index))))
            case 2:
                fields.append(EventField(keyPhase, .symbol(define("phase.\(index % 3)"))))
                fields.append(EventField(keyOK, .bool(index % 2 == 0)))
            case 3:
                fields.append(EventField(keyCount, .int(-Int64(index) * 1_000_000_007)))
                fields.append(EventField(keyOK, .bool(true)))
                fields.append(EventField(keyDelta, .int(Int64.min + Int64(index))))
            default:
                for key in [keyCount, keyPhase, keyOK, keyDelta] { fields.append(EventField(key, .int(Int64.max))) }
            }
            let subject = index % 7 == 0 ? define("item.\(index / 7 % 50)") : .empty
            let cause: UInt64 = index % 3 == 0 ? 0 : seq - 1 - UInt64(index % 4 == 0 ? 0 : min(index, 2))
            let event = Event(
                seq: seq, time: time, lane: lanes[index % lanes.count], kind: kinds[(index / 2) % kinds.count],
                subject: subject, fields: fields, cause: cause)
            writer.record(event)
            run.events.append(event)
            if index % 4 == 1 {
                let kind = DecisionKind.allCases[index % DecisionKind.allCases.count]
                let options = UInt32(rng.below(5) + 1)
                let decision = Decision(
                    kind: kind, chosen: UInt32(rng.below(Int(options))), count: options,
                    fallback: index % 8 == 1 ? 0 : options - 1, lane: kind == .pick ? lanes[index % 3] : .empty,
                    label: define("site.\(index % 4)"), ordinal: kind == .pick ? UInt32(index) : 0,
                    afterEvent: index % 9 == 1 ? seq - 1 : seq)
                writer.record(decision)
                run.decisions.append(decision)
            }
            if checkpointEvery > 0 && (index + 1) % checkpointEvery == 0 {
                writer.checkpoint()
                run.checkpointEvents.append(run.events.count)
                run.boundaries.append(writer.bytesWritten)
            }
        }
        var digest = Digest()
        for event in run.events { digest.mix(event) { Digest.hash(text: run.symbols[Int($0.raw)]) } }
        run.footer = TraceFooter(
            eventCount: UInt64(run.events.count), decisionCount: UInt64(run.decisions.count), steps: UInt64(count),
            endTime: time + 5, verdict: verdict, digest: digest)
        return run
    }

    /// A finished in-memory trace and what went into it.
    static func memoryTrace(
        count: Int, checkpointEvery: Int = 0, eventsPerFrame: Int = 65_536, verdict: Verdict = .pass
    ) throws -> (bytes: [UInt8], run: Run) {
        let writer = try TraceWriter(inMemory: "memory.simtrace", header: header, eventsPerFrame: eventsPerFrame)
        let run = record(into: writer, count: count, checkpointEvery: checkpointEvery, verdict: verdict)
        if let footer = run.footer { try writer.finish(footer) }
        return (writer.bytes, run)
    }

    /// Reads everything a reader yields until the end or an error.
    static func readAll(_ bytes: [UInt8], name: String = "t.simtrace") -> (
        records: [TraceRecord], reader: TraceReader?, error: TraceError?
    ) {
        var records: [TraceRecord] = []
        do {
            let reader = try TraceReader(bytes: bytes, name: name)
            do {
                while let record = try reader.next() { records.append(record) }
            } catch {
                return (records, reader, error)
            }
            return (records, reader, nil)
        } catch {
            return (records, nil, error)
        }
    }

    static func events(_ records: [TraceRecord]) -> [Event] {
        records.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }

    static func isCheckpoint(_ record: TraceRecord) -> Bool {
        if case .checkpoint = record { return true }
        return false
    }

    static func isFooter(_ record: TraceRecord) -> Bool {
        if case .footer = record { return true }
        return false
    }

    /// A fresh path in a per-test temporary directory.
    static func temporaryPath(_ name: String) -> String { TemporaryFiles.path(name) }

    /// Runs the zstd command-line tool with `arguments`, feeding `input`; returns stdout and the status.
    static func zstd(_ arguments: [String], input: [UInt8] = []) throws -> (output: [UInt8], status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zstd")
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Write on another thread so a large output cannot deadlock against a full input pipe.
        let writer = Thread { [input] in
            stdin.fileHandleForWriting.write(Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ([UInt8](data), process.terminationStatus)
    }

    /// One raw buffer compressed as one zstd frame (for hand-made traces).
    static func frame(_ build: (RecordBuffer) -> Void) throws -> [UInt8] {
        let buffer = RecordBuffer(capacity: 64)
        buffer.reserve(16 << 20)
        build(buffer)
        let compressor = try FrameCompressor(level: 1, file: "test")
        return Array(try compressor.compress(buffer.bytes, file: "test", offset: 0))
    }

    static func headerFrame(_ header: TraceHeader = header) throws -> [UInt8] {
        try frame { header.encode(into: $0) }
    }
}
