import Foundation
import SimTestSupport
import Testing

/// `simrun explain` of traces whose runs trap, as users run it: exit codes and the lines that say
/// what was (not) done. The explanations themselves: SimEngineTests' `ExplainerCrashTests` and
/// `CrashCampaignTests`.
@Suite struct ExplainCommandTests {
    /// A crash trace is explained (every re-fuzzed run a child of its own): exit 0, the runs per
    /// decision said, the race not looked for (naming it re-runs the schedule that traps), in text
    /// and in `--json`.
    @Test func aCrashTraceIsExplainedAndItsRaceNotLookedFor() throws {
        let text = try SimrunProcess.run(["explain", CommittedTraces.blueprintCrash, "--runs", "2"])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("re-fuzzes the rest 2 times"), "\(text.stdout)")
        #expect(text.stdout.contains("The race: not looked for"), "\(text.stdout)")
        let json = try SimrunProcess.run(["explain", CommittedTraces.blueprintCrash, "--runs", "2", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#""runs":2"#), "\(json.stdout)")
    }

    /// A trace cut before its verdict has no failure to measure: 65 with the reason.
    @Test func aTruncatedTraceIsRefusedInOneLine() throws {
        let directory = try makeTemporaryDirectory("explain-cut")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try CommittedTraces.cut(CommittedTraces.lostInput, 600, to: directory, "t.simtrace")
        let truncated = try SimrunProcess.run(["explain", cut])
        #expect(truncated.status == 65, "\(truncated.stderr)")
        #expect(truncated.stderr.contains("the trace is truncated"), "\(truncated.stderr)")
        #expect(truncated.stderr.split(separator: "\n").count == 1, "\(truncated.stderr)")
    }

    /// A failure that does not trap, whose re-fuzzed runs do (worker.b's stale write at seed 5;
    /// other schedules trap): the explain's child ends, and the command reports the crash (exit 1).
    @Test func anExplainWhoseRefuzzedRunsTrapReportsTheCrash() throws {
        let directory = try makeTemporaryDirectory("explain-traps")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("u5.simtrace").path
        let run = try SimrunProcess.run([
            "run", "unruly-counter", "--variant", "crashing", "--seed", "5", "--strategy", "random", "--out", trace,
        ])
        #expect(run.status == 1 && !run.stdout.contains("CRASH"), "\(run.stdout)")
        let explain = try SimrunProcess.run(["explain", trace, "--runs", "50"])
        #expect(explain.status == 1, "\(explain.stdout)\(explain.stderr)")
        #expect(explain.stdout.contains("CRASH: a run of this explain trapped"), "\(explain.stdout)")
    }

    /// `explain` runs in a guarded child: Ctrl-C is passed on, and the command ends with 130.
    @Test func explainStopsOnCtrlC() throws {
        let process = Process()
        process.executableURL = SimrunProcess.executable
        process.arguments = ["explain", CommittedTraces.lostInput, "--runs", "1000000"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        kill(process.processIdentifier, SIGINT)
        let start = Date()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(Date().timeIntervalSince(start) < 10, "it stops, not hangs")
    }
}
