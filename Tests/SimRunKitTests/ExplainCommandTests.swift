import Foundation
import SimTestSupport
import Testing

/// `simrun explain` as users run it: the table, one sentence, the timeline and the race, the same for
/// any `--jobs`; exit codes and the lines that say what was (not) done, for traces with nothing to
/// explain and traces whose runs trap. The explanations themselves: SimEngineTests' `ExplainerTests`,
/// `RaceFinderTests`, `ExplainerCrashTests` and `CrashCampaignTests`.
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

    // MARK: The table, the sentence and the race

    @Test func theCommandPrintsTheTableOneSentenceTheTimelineAndTheRace() throws {
        let trace = CommittedTraces.lostInput
        let run = try SimrunProcess.run(["explain", trace, "--runs", "40"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let sentences = lines.filter { $0.hasPrefix("The bug became certain at decision") }
        #expect(sentences.count == 1, "\(run.stdout)")
        #expect(sentences.first?.contains("input.blur#1 on lane user.keyboard") == true, "\(run.stdout)")
        #expect(lines.contains { $0.contains("certain from here") && $0.contains("user.keyboard/input.blur#1") })
        #expect(lines.contains { $0.hasPrefix("  → ") && $0.contains("▶") })
        let race = try #require(lines.first { $0.hasPrefix("The race: decision ") }, "\(run.stdout)")
        #expect(race.contains(" overtook ") && race.contains("the failure goes away"), "\(race)")
        let again = try SimrunProcess.run(["explain", trace, "--runs", "40", "--jobs", "1"])
        #expect(again.stdout == run.stdout)
    }

    /// A data decision decides the bug (timer-draft-resurrection's send latency): the sentence names
    /// it by its site, as `show` does.
    @Test func aDecisiveDataDecisionIsNamedBySiteInTheSentence() throws {
        let directory = try makeTemporaryDirectory("explain-site")
        defer { try? FileManager.default.removeItem(at: directory) }
        let found = try SimrunProcess.run(
            ["fuzz", "timer-draft-resurrection", "--seeds", "0..<500", "--out", "found", "--no-show"], in: directory)
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("found").path)
                .filter { $0.hasSuffix(".simtrace") }.sorted().first)
        let run = try SimrunProcess.run(["explain", "found/\(name)", "--runs", "20", "--jobs", "1"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.range(
                of: #"The bug became certain at decision [0-9]+, choose send\.latency = [0-9]+ of 2 at virtual time"#,
                options: .regularExpression) != nil, "\(run.stdout)")
    }

    @Test func aPassingTraceHasNothingToExplain() throws {
        let directory = try makeTemporaryDirectory("explain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorded = try SimrunProcess.run(
            ["run", "counter-race", "--variant", "fixed", "--out", "pass.simtrace"], in: directory)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let explained = try SimrunProcess.run(["explain", "pass.simtrace"], in: directory)
        #expect(explained.status == 64, "\(explained.stdout)")
        #expect(explained.stderr.contains("the recorded run did not fail; nothing to explain"), "\(explained.stderr)")
    }
}
