import Foundation
import SimEngine
import SimTestSupport
import Testing

/// A hang names who is stuck (issue #30) wherever a verdict is shown: `run`'s text and `--json`,
/// `show` and both exports carry the list of suspended tasks. (That every hang verdict names them:
/// SimScenariosTests' `HangVerdictMessageTests`.)
@Suite struct HangReportCommandTests {
    /// `show` of a committed hang prints its verdict whole, with the list.
    @Test func showPrintsACommittedHangsVerdictWithItsList() throws {
        let trace = CommittedTraces.directory + "/gcd-semaphore-deadlock-buggy-deadlock.simtrace"
        let verdict = try #require(try TraceInput(path: trace).footer?.verdict)
        #expect(verdict.message.contains("suspended tasks"), "\(verdict)")
        let show = try SimrunProcess.run(["show", trace])
        #expect(show.status == 0 && show.stdout.contains("verdict: FAIL — \(verdict)"), "\(show.stdout)")
    }

    /// The list in `run`'s text and `--json`, `show`, the Perfetto and JSON Lines exports.
    @Test(.enabled(if: TestPlatform.readsTaskLayout, "the census reads the task layout on Linux x86_64 and arm64 only"))
    func theListIsInTheTextTheJSONShowAndBothExports() throws {
        let directory = try makeTemporaryDirectory("hang-report")
        defer { try? FileManager.default.removeItem(at: directory) }
        let expected =
            "suspended tasks (1): task (created by the scenario; waiting on a continuation; in "
            + "CaptureProbe.dispatchProbe(_:_:_:) ← CaptureProbe.probe(_:_:_:) ← closure #2 in CaptureProbe.scenario)"
        let arguments = ["run", "capture-probe", "--variant", "dispatch-source-data", "--strategy", "fifo"]
        let run = try SimrunProcess.run(arguments + ["--out", "hang.simtrace"], in: directory)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("stays-in-simulation: work escaped the simulation: "), "\(run.stdout)")
        #expect(run.stdout.contains(expected), "\(run.stdout)")

        let json = try SimrunProcess.run(arguments + ["--json", "--out", "hang-json.simtrace"], in: directory)
        let document = try #require(
            try? JSONValue(parsing: json.stdout.split(separator: "\n").last.map(String.init) ?? ""), "\(json.stdout)")
        let message = try #require(document["outcome"]?["message"]?.stringValue)
        #expect(message.hasSuffix("; " + expected), "\(message)")

        let trace = directory.appendingPathComponent("hang.simtrace").path
        let show = try SimrunProcess.run(["show", trace])
        #expect(show.stdout.contains("verdict: FAIL — stays-in-simulation: ") && show.stdout.contains(expected))

        let perfetto = try SimrunProcess.run(["export", trace, "--format", "perfetto"])
        #expect(perfetto.status == 0, "\(perfetto.stderr)")
        #expect(perfetto.stdout.contains(expected), "\(perfetto.stdout.suffix(2000))")
        let lines = try SimrunProcess.run(["export", trace, "--format", "jsonl"])
        let footer = try #require(lines.stdout.split(separator: "\n").last.map(String.init))
        let footerDocument = try #require(try? JSONValue(parsing: footer), "\(footer)")
        #expect(footerDocument["message"]?.stringValue?.hasSuffix(expected) == true, "\(footer)")
    }
}
