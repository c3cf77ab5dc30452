import Foundation
import SimTestSupport
import Testing

/// What `simrun explain` prints: the table, one sentence, the timeline and the race, the same for
/// any `--jobs`; and 64 for a trace with nothing to explain. (`Explainer` and `RaceFinder` decide
/// what it prints: SimEngineTests' ExplainerTests and RaceFinderTests.)
@Suite struct ExplainCommandTests {
    @Test func theCommandPrintsTheTableOneSentenceTheTimelineAndTheRace() throws {
        let directory = try makeTemporaryDirectory("explain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let found = try SimrunProcess.run(
            ["fuzz", "lost-input-navigation", "--seeds", "0..<500", "--out", "found", "--no-show"], in: directory)
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("found").path)
                .filter { $0.hasSuffix(".simtrace") }.sorted().first)
        let trace = directory.appendingPathComponent("found").appendingPathComponent(name).path
        let run = try SimrunProcess.run(["explain", trace, "--runs", "40"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let sentences = lines.filter { $0.hasPrefix("The bug became certain at decision") }
        #expect(sentences.count == 1, "\(run.stdout)")
        #expect(sentences.first?.contains("input.blur#1 on lane user.keyboard") == true, "\(run.stdout)")
        #expect(lines.contains { $0.contains("certain from here") && $0.contains("user.keyboard/input.blur#1") })
        #expect(lines.contains { $0.hasPrefix("  → ") && $0.contains("▶") })
        let race = try #require(lines.first { $0.hasPrefix("The race: decision ") }, "\(run.stdout)")
        #expect(race.contains(" overtook ") && race.contains("the failure goes away"), "\(race)")
        let again = try SimrunProcess.run(["explain", trace, "--runs", "40", "--jobs", "1"], in: directory)
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
