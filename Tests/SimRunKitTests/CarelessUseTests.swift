import Foundation
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// The CLI under careless use (#28): defaults that agree, unknown words and bad numbers that say
/// why, one JSON document whatever fails, pipes as inputs, and I/O errors that are never "bug found".
@Suite struct CarelessUseTests {
    @Test func theSeedFuzzReportsFailsAgainWithRunAsPrinted() {
        let seed = LostInputFixture.seed
        let (status, output) = simrun(["run", "lost-input-navigation", "--seed", "\(seed)"])
        #expect(status == 1, "run and fuzz share one default strategy: \(output)")
        let (_, help) = simrun(["run", "--help"])
        #expect(help.contains("default: pct:depth=3"), "\(help)")
    }

    @Test func unknownCommandsAndHelpTopicsAreUsageErrorsWithASuggestion() {
        let (help, helpOutput) = simrun(["help", "nosuch"])
        #expect(help == 64, "\(helpOutput)")
        #expect(helpOutput.contains("unknown command 'nosuch'"), "\(helpOutput)")
        let (typo, typoOutput) = simrun(["fuz", "lost-input-navigation", "--seeds", "3"])
        #expect(typo == 64)
        #expect(typoOutput.contains("did you mean 'fuzz'?"), "\(typoOutput)")
        #expect(simrun(["help", "fuzz"]).0 == 0, "help of a real command still works")
    }

    @Test func refusedNumbersSayWhy() {
        let cases: [([String], String)] = [
            (["fuzz", "counter-race", "--seeds", "-1"], "seeds are not negative"),
            (["fuzz", "counter-race", "--noise", "-1"], "--noise <noise>': expected a whole number from 0 to 64"),
            (["run", "counter-race", "--noise", "-1"], "--noise <noise>': expected a whole number from 0 to 64"),
            (["fuzz", "counter-race", "--seeds", "10..<5"], "10..<5 holds no seed"),
            (["fuzz", "counter-race", "--seeds", "5..<5"], "5..<5 holds no seed"),
            (["fuzz", "counter-race", "--seeds", "18446744073709551616"], "is above 18446744073709551615"),
            (["fuzz", "counter-race", "--seeds", "0..<18446744073709551616"], "a bound is above"),
            (["fuzz", "counter-race", "--time", "1y"], "as 30, 30s, 5m or 2h"),
            (["fuzz", "counter-race", "--shard", "5/4"], "1 <= K <= N (got 5/4)"),
            (["show", "x.simtrace", "--limit", "-1"], "a whole number, 0 or more"),
        ]
        for (arguments, reason) in cases {
            let (status, output) = simrun(arguments)
            #expect(status == 64, "\(arguments): \(output)")
            #expect(output.contains(reason), "\(arguments): \(output)")
            #expect(!output.contains("Missing value"), "\(arguments): \(output)")
        }
        // Minutes and hours are durations too.
        let (status, output) = simrun(["fuzz", "counter-race", "--variant", "fixed", "--time", "0.01m", "-q"])
        #expect(status == 0, "\(output)")
    }

    @Test func usageErrorsOfTheParserAreStillOneJSONDocument() throws {
        let output = try SimrunProcess.run(["run", "counter-race", "--seed", "-1", "--json"])
        #expect(output.status == 64)
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
        #expect(document["verdict"] as? String == "error" && document["exitCode"] as? Int == 64)
        #expect(document["command"] as? String == "run")
    }

    @Test func explainJSONHasTheFindingItExplains() throws {
        let trace = TemporaryFiles.path("lost.simtrace")
        LostInputFixture.record(to: trace)
        let (status, output) = simrun(["explain", trace, "--runs", "3", "--json"])
        #expect(status == 0, "\(output)")
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("{") })
        let document = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]], "\(line)")
        #expect(findings.first?["oracle"] as? String == "typed-text-kept", "\(findings)")
    }

    @Test func anUnusableTMPDIRIsCannotWriteNeverBugFound() throws {
        let directory = try makeTemporaryDirectory("no-tmpdir")
        let missing = directory.appendingPathComponent("missing").path
        let check = try SimrunProcess.run(
            ["run", "lost-input-navigation", "--variant", "fixed", "--seed", "1", "--check-determinism", "--json"],
            in: directory, environment: ["TMPDIR": missing])
        #expect(check.status == 73, "\(check.stderr)")
        #expect(check.stdout.contains("\"exitCode\":73"), "\(check.stdout)")
        // A campaign still saves its finding in --out and says where, though its re-checks need TMPDIR.
        let fuzz = try SimrunProcess.run(
            ["fuzz", "lost-input-navigation", "--seeds", "20", "--no-show", "--out", "o"], in: directory,
            environment: ["TMPDIR": missing])
        #expect(fuzz.status == 1, "\(fuzz.stderr)")
        #expect(
            fuzz.stdout.contains("  trace:  o/lost-input-navigation-buggy-typed-text-kept.simtrace"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("  replay: "), "\(fuzz.stdout)")
    }

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

    @Test func aSlurmTaskOffItsArraysGridIsNamed() throws {
        let output = try SimrunProcess.run(
            ["fuzz", "counter-race", "--variant", "fixed", "--seeds", "8", "--shard", "auto"],
            environment: [
                "SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6",
                "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_STEP": "2",
            ])
        #expect(output.status == 64)
        #expect(
            output.stderr.contains("SLURM_ARRAY_TASK_ID 3 is not a task of the job array 0-6:2"), "\(output.stderr)")
    }

    @Test func aDumbTerminalGetsNoEscapeSequences() {
        #expect(!Console.drawsLiveLines(isTerminal: true, term: "dumb"))
        #expect(Console.drawsLiveLines(isTerminal: true, term: "xterm-256color"))
        #expect(Console.drawsLiveLines(isTerminal: true, term: nil))
        #expect(!Console.drawsLiveLines(isTerminal: false, term: "xterm"))
    }
}

/// Triage of #28 defect 7: dfs bound 2 exhausts blueprint-reentrant-update-crash without the crash
/// because the crash needs 3 of dfs's preemptions (its non-fifo count is 2): the summary says what
/// the proof covers.
@Suite struct DFSBoundTests {
    @Test func anExhaustedBoundSaysWhatAPreemptionIsAndHowToRaiseIt() {
        let (status, output) = simrun([
            "fuzz", "blueprint-reentrant-update-crash", "--strategy", "dfs", "--seeds", "1000", "--no-show",
        ])
        #expect(status == 0, "\(output)")
        #expect(output.contains("space exhausted"), "\(output)")
        #expect(output.contains("no failure with at most 2 preemptions"), "\(output)")
        #expect(output.contains("dfs:preemptions=P"), "\(output)")
    }
}
