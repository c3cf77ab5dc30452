import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// `--json`: one object on stdout, schema simrun.result/1, for run, fuzz, replay, shrink and explain;
/// `--quiet`: the verdict line only.
@Suite struct JSONResultTests {
    /// Runs in-process and returns the exit status and what went to stdout, line by line.
    static func stdout(_ arguments: [String]) -> (Int32, [String]) {
        let (status, output) = simrun(arguments)
        return (status, stdoutLines(output))
    }

    /// The one JSON object a command printed, checked against the fields every document has.
    static func document(_ arguments: [String], command: String) throws -> (Int32, [String: Any]) {
        let (status, lines) = stdout(arguments + ["--json"])
        #expect(lines.count == 1, "one line on stdout: \(lines)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "simrun.result/1")
        #expect(object["command"] as? String == command)
        #expect((object["exitCode"] as? NSNumber)?.int32Value == status)
        #expect(object["verdict"] is String)
        return (status, object)
    }

    @Test func fuzzRunAndReplayPrintOneParsableDocument() throws {
        let directory = try makeTemporaryDirectory("json")
        let out = directory.appendingPathComponent("out").path
        let (fuzzStatus, fuzz) = try Self.document(
            ["fuzz", "lost-input-navigation", "--out", out, "--jobs", "1"], command: "fuzz")
        #expect(fuzzStatus == 1)
        #expect(fuzz["verdict"] as? String == "fail")
        #expect(fuzz["scenario"] as? String == "lost-input-navigation")
        #expect(fuzz["variant"] as? String == "buggy")
        #expect(fuzz["strategy"] as? String == "pct:depth=3")
        let seed = LostInputFixture.seed
        #expect((fuzz["schedules"] as? NSNumber)?.uint64Value == seed + 1, "seeds 0 to the first failing one, one job")
        #expect(fuzz["rate"] is NSNumber && fuzz["seconds"] is NSNumber)
        let findings = try #require(fuzz["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect((finding["signature"] as? String)?.hasPrefix("typed-text-kept") == true)
        #expect((finding["seed"] as? NSNumber)?.uint64Value == seed)
        let trace = try #require(finding["trace"] as? String)
        #expect(FileManager.default.fileExists(atPath: trace))
        let sometimes = try #require(fuzz["sometimes"] as? [[String: Any]])
        #expect(sometimes.map { $0["goal"] as? String }.contains("navigated"))

        let (runStatus, run) = try Self.document(
            LostInputFixture.run + ["--out", out + "/run.simtrace"],
            command: "run")
        #expect(runStatus == 1 && run["verdict"] as? String == "fail")
        #expect((run["seed"] as? NSNumber)?.uint64Value == seed)
        #expect(run["trace"] as? String == out + "/run.simtrace")
        #expect(
            ((run["findings"] as? [[String: Any]])?.first?["signature"] as? String)?.hasPrefix("typed-text-kept")
                == true)
        #expect((run["sometimes"] as? [[String: Any]])?.isEmpty == false)

        let (replayStatus, replay) = try Self.document(["replay", trace], command: "replay")
        #expect(replayStatus == 0 && replay["verdict"] as? String == "identical")
        #expect((replay["seed"] as? NSNumber)?.uint64Value == seed)
        let (fixedStatus, fixed) = try Self.document(["replay", trace, "--variant", "fixed"], command: "replay")
        #expect(fixedStatus == 0 && fixed["verdict"] as? String == "pass" && fixed["variant"] as? String == "fixed")

        let (_, shrink) = try Self.document(
            ["shrink", trace, "-o", out + "/shrunk.simtrace"], command: "shrink")
        #expect(shrink["verdict"] as? String == "shrunk" && shrink["trace"] as? String == out + "/shrunk.simtrace")
        let (_, explain) = try Self.document(["explain", trace, "--runs", "20"], command: "explain")
        #expect(explain["verdict"] as? String == "explained" && (explain["decisive"] as? NSNumber)?.intValue == 2)
    }

    @Test func aCrashIsAFindingWithItsTraceInTheFuzzDocument() throws {
        let directory = try makeTemporaryDirectory("json-crash")
        let output = try SimrunProcess.run(
            [
                // --keep-going: which failure has the lowest seed depends on the strategy's draws; the crash
                // must be among the distinct findings whichever comes first.
                "fuzz", "unruly-counter", "--variant", "crashing", "--seeds", "1..<60", "--jobs", "1", "--no-show",
                "--out", "out", "--json", "--keep-going", "--no-shrink",
            ], in: directory)
        #expect(output.status == 1, "\(output.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
        let findings = try #require(object["findings"] as? [[String: Any]])
        let crash = try #require(findings.first { ($0["oracle"] as? String) == "crashed" }, "\(findings)")
        #expect((crash["signature"] as? String)?.hasPrefix("crashed: Precondition failed: stale write") == true)
        let trace = try #require(crash["trace"] as? String)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(trace).path))
    }

    /// A run that goes quiet with work still pending is a finding: exit 1, and its document's outcome
    /// says `pending` with what was left (no built-in scenario ends that way, so one is defined here).
    @Test func aRunEndingWithWorkPendingSaysSo() throws {
        let unfinished = Scenario(name: "unfinished", summary: "", variants: [.init("v", "")]) { simulation, _ in
            simulation.post(on: "main", "start") {}
            simulation.pendingWork("effects") { "1 effect still running: fetch" }
        }
        let directory = try makeTemporaryDirectory("pending-json")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("t.simtrace").path
        let (status, output) = simrun(["run", "unfinished", "--out", out, "--json"], scenarios: [unfinished])
        let lines = stdoutLines(output)
        #expect(status == 1 && lines.count == 1, "\(output)")
        let document = try JSONValue(parsing: lines.first ?? "")
        #expect(document["exitCode"]?.intValue == 1, "\(output)")
        #expect(document["outcome"]?["verdict"]?.stringValue == "pending", "\(output)")
        #expect(
            document["outcome"]?["message"]?.stringValue
                == "work still pending at the end: effects: 1 effect still running: fetch", "\(output)")
    }

    @Test func aFailureWithJSONIsStillOneDocumentWithTheCode() throws {
        let (status, document) = try Self.document(["replay", "/nonexistent/x.simtrace"], command: "replay")
        #expect(status == 66)
        #expect(document["verdict"] as? String == "error")
        #expect((document["error"] as? String)?.contains("/nonexistent/x.simtrace") == true)
    }

    /// `--quiet` prints the verdict line on stdout and nothing on stderr (no opening line), for a
    /// failing and a passing campaign and a run.
    @Test func quietPrintsOnlyTheVerdictLine() throws {
        let directory = try makeTemporaryDirectory("quiet")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [([String], Int32, String)] = [
            (
                ["fuzz", "lost-input-navigation", "--quiet", "--out", "out"], 1,
                "fuzz lost-input-navigation/buggy: FAIL — 1 distinct failure"
            ),
            (["fuzz", "counter-race", "--variant", "fixed", "--seeds", "3", "-q"], 0, "fuzz counter-race/fixed: "),
            (["run", "counter-race", "--variant", "fixed", "-q"], 0, "counter-race/fixed seed 0 "),
        ]
        for (arguments, status, prefix) in cases {
            let output = try SimrunProcess.run(arguments, in: directory)
            #expect(output.status == status, "\(arguments): \(output.stdout)\(output.stderr)")
            #expect(output.stderr.isEmpty, "\(arguments): no opening line: \(output.stderr)")
            let lines = output.stdout.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.hasPrefix(prefix) == true, "\(arguments): \(lines)")
            #expect(status == 1 || lines.first?.contains(": pass — ") == true, "\(arguments): \(lines)")
        }
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
        let directory = try makeTemporaryDirectory("explain-json")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        let output = try SimrunProcess.run(["explain", trace, "--runs", "3", "--json"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let line = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("{") })
        let document = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]], "\(line)")
        #expect(findings.first?["oracle"] as? String == "typed-text-kept", "\(findings)")
    }
}
