import Foundation
import SimTestSupport
import Testing

/// A finding is never lost nor mixed up with another: `fuzz --from` a crash keeps the crash, and
/// campaigns sharing one `--out` never save over each other's traces (merge reports the trace it
/// names).
@Suite struct FindingsKeptTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func fuzzFromACrashTraceKeepsTheCrashAndItsTraceReplaysAsACrash() throws {
        let directory = try makeTemporaryDirectory("from-crash")
        let trace = directory.appendingPathComponent("crash.simtrace").path
        try FileManager.default.copyItem(
            atPath: Self.package.appendingPathComponent(
                "Traces/blueprint-reentrant-update-crash-buggy-crashed.simtrace"
            )
            .path, toPath: trace)
        let fuzz = try SimrunProcess.run(
            ["fuzz", "--from", trace, "--keep", "3", "--seeds", "5", "--out", "c7", "--no-show"], in: directory)
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH at seed"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("crashed at event"), "the re-recording kept the prefix: \(fuzz.stdout)")
        #expect(!fuzz.stdout.contains("NONDETERMINISTIC"), "\(fuzz.stdout)")
        let replay = try SimrunProcess.run(
            ["replay", "c7/blueprint-reentrant-update-crash-buggy-crashed.simtrace"], in: directory)
        #expect(replay.stdout.contains("identical — crashed at event"), "\(replay.stdout)\(replay.stderr)")
    }

    @Test func twoCampaignsRunningAtOnceOnOneOutEachKeepTheirTrace() throws {
        let directory = try makeTemporaryDirectory("concurrent-out")
        var processes: [(Process, Pipe)] = []
        for shard in ["1/2", "2/2"] {
            let process = Process()
            process.executableURL = SimrunProcess.executable
            process.arguments = [
                "fuzz", "lost-input-navigation", "--seeds", "2000", "--shard", shard, "--no-show", "--out", "same",
                "-q",
            ]
            process.currentDirectoryURL = directory
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            processes.append((process, out))
        }
        var printed: [String] = []
        for (process, out) in processes {
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 1, "\(text)")
            printed += text.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter { $0.hasSuffix(".simtrace") }.map(
                String.init)
        }
        #expect(Set(printed).count == 2, "two traces, two names: \(printed)")
        for name in printed {
            let show = simrun(["show", directory.appendingPathComponent(name).path, "--limit", "0"])
            #expect(show.0 == 0, "\(name): \(show.1)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("same").path)
        #expect(left.filter { !$0.hasSuffix(".simtrace") }.isEmpty, "no claim or temporary file left: \(left)")
    }

    @Test func campaignsSharingAnOutKeepEachOthersTracesAndMergeNamesTheRightOne() throws {
        let directory = try makeTemporaryDirectory("shared-out")
        let out = directory.appendingPathComponent("tr").path
        let results = directory.appendingPathComponent("res").path
        for shard in ["1/2", "2/2"] {
            let (status, output) = simrun([
                "fuzz", "lost-input-navigation", "--seeds", "2000", "--shard", shard, "--no-show", "--jobs", "1",
                "--result", results + "/b-\(shard.prefix(1)).json", "--out", out, "-q",
            ])
            #expect(status == 1, "\(output)")
        }
        let saved = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(saved.count == 2, "one trace per campaign, none overwritten: \(saved)")
        let (status, output) = simrun(["merge", results, "--out", out])
        #expect(status == 1, "\(output)")
        let failLine = try #require(output.split(separator: "\n").first { $0.hasPrefix("FAIL at seed ") })
        let seed = failLine.dropFirst("FAIL at seed ".count).prefix { $0.isNumber }
        let traceLine = try #require(output.split(separator: "\n").first { $0.hasPrefix("  trace:  ") })
        let trace = String(traceLine.dropFirst("  trace:  ".count))
        let show = simrun(["show", trace, "--limit", "0"])
        #expect(show.1.contains("seed \(seed) "), "the trace merge names is the seed it reports: \(show.1)")
    }
}
