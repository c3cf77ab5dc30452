import Foundation
import SimEngine
import SimScenarios
import SimTestSupport
import SimTesting
import Testing

@testable import SimRunKit

/// `simrun replay` (and `explain`) as users run them: a trace read from a pipe is replayed like a file.
@Suite struct ReplayCommandTests {
    @Test func aTraceFromAPipeReplaysAndExplainsLikeAFile() throws {
        let directory = try makeTemporaryDirectory("pipe-in")
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        for arguments in [["replay", "/dev/stdin"], ["explain", "/dev/stdin", "--runs", "3"]] {
            let process = Process()
            process.executableURL = SimrunProcess.executable
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": directory.path]) { $1 }
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.write(bytes)
            try input.fileHandleForWriting.close()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(arguments): \(text)")
            #expect(!text.contains("file is empty"), "\(text)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["lost.simtrace"], "the temporary copy is removed: \(left)")
    }

    /// A crash trace cut short: exit 2 with the truncation line, the replay's crash past the cut
    /// shown (the verdict itself: SimEngineTests' `TraceReplayInChildTests`).
    @Test func aTruncatedCrashTraceSaysInconclusiveAndExits2() throws {
        let directory = try makeTemporaryDirectory("replay-cut")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try CommittedTraces.cut(CommittedTraces.blueprintCrash, 1000, to: directory, "t.simtrace")
        let replay = try SimrunProcess.run(["replay", cut])
        #expect(replay.status == 2, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("inconclusive — identical up to the truncation point"), "\(replay.stdout)")
        #expect(replay.stdout.contains("CRASHED"), "the replay crashed past the cut: \(replay.stdout)")
        let json = try SimrunProcess.run(["replay", cut, "--json"])
        #expect(json.status == 2)
        #expect(json.stdout.contains("\"verdict\":\"inconclusive\""), "\(json.stdout)")
    }

    /// A crash that happens again under other noise: exit 1, the line says where and why.
    @Test func aCrashUnderOtherNoiseSaysCrashedAndExits1() throws {
        let text = try SimrunProcess.run(["replay", CommittedTraces.blueprintCrash, "--noise", "2"])
        #expect(text.status == 1, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("with 2 noise lanes: CRASHED at event"), "\(text.stdout)")
        #expect(text.stdout.contains("Reentrant updates are not supported"), "\(text.stdout)")
        let json = try SimrunProcess.run(["replay", CommittedTraces.blueprintCrash, "--noise", "2", "--json"])
        #expect(json.status == 1, "\(json.stdout)\(json.stderr)")
        #expect(json.stdout.contains("\"verdict\":\"crashed\""), "\(json.stdout)")
    }

    /// A truncated trace on the fix: exit 2 with the reason, never a pass.
    @Test func aTruncatedTraceOnTheFixSaysWhyItIsInconclusive() throws {
        let directory = try makeTemporaryDirectory("replay-cut")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try CommittedTraces.cut(CommittedTraces.lostInput, 200, to: directory, "g.simtrace")
        let fixed = try SimrunProcess.run(["replay", cut, "--variant", "fixed"])
        #expect(fixed.status == 2, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("inconclusive: the trace is truncated"), "\(fixed.stdout)")
    }

    /// Damaged variants of every committed trace (cut short, bytes flipped), replayed by the command
    /// and through SimTesting's `TraceCorpus`: both give the engine's verdict and the same exit code,
    /// none exits 0, none dies of a signal. A deterministic sample here; `tools/damaged-replays.sh`
    /// runs 1,000 (SIMRUN_DAMAGED_COUNT).
    @Test func theCommandAndSimTestingAgreeOnDamagedTraces() throws {
        let exitCodes: Set<Int32> = [0, 1, 2, 64, 65, 66, 73, 130]
        let count = ProcessInfo.processInfo.environment["SIMRUN_DAMAGED_COUNT"].flatMap(Int.init) ?? 24
        let directory = try makeTemporaryDirectory("damaged-agree")
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = try FileManager.default.contentsOfDirectory(atPath: CommittedTraces.directory)
            .filter { $0.hasSuffix(".simtrace") }.sorted()
        let sources = try names.map {
            try [UInt8](Data(contentsOf: URL(fileURLWithPath: CommittedTraces.directory + "/" + $0)))
        }
        var rng = SplitMix64(seed: 22)
        var tally: [String: Int] = [:]
        for index in 0..<count {
            let source = index % sources.count
            var bytes = sources[source]
            let kind: String
            if index % 2 == 0 {
                kind = "cut"
                bytes = Array(bytes.prefix(1 + rng.below(bytes.count - 1)))
            } else {
                kind = "flip"
                for _ in 0..<(1 + rng.below(3)) { bytes[rng.below(bytes.count)] ^= UInt8(1 + rng.below(255)) }
            }
            let name = "\(index)-\(kind)-\(names[source])"
            let path = directory.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let cli = try SimrunProcess.run(["replay", path, "--json"], timeout: 60)
            #expect(exitCodes.contains(cli.status), "\(name): died (\(cli.status)): \(cli.stderr)")
            #expect(cli.status != 0, "\(name): a damaged trace exited 0: \(cli.stdout)")
            let corpus = TraceCorpus(
                directory: directory.path, scenarios: BuiltinScenarios.all, executable: SimrunProcess.executable.path)
            let trace = try #require(corpus.traces.first { $0.name == name })
            let verdict: String
            let status: Int32
            do throws(SimEngineError) {
                let report = try corpus.verdict(of: trace)
                verdict = report.verdict.name
                status = ReplayCommand.status(of: report.verdict)
            } catch {
                verdict = "error"
                status = error.code
            }
            #expect(cli.status == status, "\(name): CLI exit \(cli.status), SimTesting \(status) (\(verdict))")
            let document = try? JSONValue(parsing: cli.stdout.split(separator: "\n").last.map(String.init) ?? "")
            let cliVerdict = document?["verdict"]?.stringValue ?? "error"
            // A damaged file is an error document in the CLI (65, one line), `damaged` in the engine.
            #expect(
                cliVerdict == verdict || (verdict == "damaged" && cliVerdict == "error"),
                "\(name): CLI \(cliVerdict), SimTesting \(verdict)")
            tally["\(kind) \(verdict) \(status)", default: 0] += 1
        }
        print(
            "damaged replays: \(count); " + tally.keys.sorted().map { "\($0) ×\(tally[$0]!)" }.joined(separator: ", "))
    }
}
