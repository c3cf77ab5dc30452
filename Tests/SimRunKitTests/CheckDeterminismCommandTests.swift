import Foundation
import SimEngine
import SimTestSupport
import Testing

/// `fuzz --check-determinism[=N]` and `run --check-determinism` as users run them: what they print
/// and exit with, which seeds a timed or sharded campaign checks (decided here, from what the
/// campaign ran), and what they refuse. The comparison itself: SimEngineTests'
/// `DeterminismCampaignTests`.
@Suite(.serialized) struct CheckDeterminismCommandTests {
    @Test func aDeterministicCampaignSaysWhatItCheckedInTextAndJSON() throws {
        let text = try SimrunProcess.run(
            ["fuzz", "double-tap-submit", "--variant", "fixed", "--seeds", "0..<30", "--check-determinism"])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(
            text.stdout.contains("determinism: 30 seeds checked in two more processes (every seed), 0 differences"),
            "\(text.stdout)")
        let json = try SimrunProcess.run([
            "fuzz", "search-debounce-task", "--variant", "fixed", "--seeds", "0..<40", "--check-determinism=4", "--json",
        ])
        #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
        #expect(json.stdout.contains(#""determinism":{"every":4,"checked":10,"differences":0"#), "\(json.stdout)")
    }

    @Test func differencesAreFindingsWithBothTracesSaved() throws {
        let directory = try makeTemporaryDirectory("determinism-differs")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try SimrunProcess.run(
            [
                "fuzz", "unruly-counter", "--variant", "wall-clock", "--strategy", "fifo", "--seeds", "0..<4",
                "--check-determinism", "--keep-going", "--no-show", "--out", "out",
            ], in: directory)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("determinism: 4 seeds checked in two more processes (every seed), 4 differences"))
        #expect(run.stdout.contains("NONDETERMINISTIC: seed 1 ran differently in two processes"), "\(run.stdout)")
        #expect(run.stdout.contains("first divergent event: #"), "\(run.stdout)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)
        #expect(saved.contains { $0.hasPrefix("unruly-counter-wall-clock-seed1-nondeterministic-second") }, "\(saved)")
    }

    /// The seeds checked are those the campaign ran: every 1000th of a timed one's, every second of
    /// shard 2/3's 33.
    @Test func aTimedOrShardedCampaignChecksTheSeedsItRan() throws {
        let timed = try SimrunProcess.run(
            ["fuzz", "counter-race", "--variant", "fixed", "--time", "0.3", "--check-determinism=1000"])
        #expect(timed.status == 0, "\(timed.stdout)\(timed.stderr)")
        #expect(timed.stdout.contains(" seeds checked in two more processes (one in 1000), 0 differences"))
        let shard = try SimrunProcess.run([
            "fuzz", "counter-race", "--variant", "fixed", "--seeds", "0..<100", "--shard", "2/3", "--check-determinism=2",
        ])
        #expect(shard.stdout.contains("determinism: 17 seeds checked"), "shard 2/3 runs 33 seeds: \(shard.stdout)")
    }

    @Test func strategiesWhoseSeedsDoNotStandAloneAndResultFilesAreRefused() throws {
        let run = try SimrunProcess.run(["fuzz", "counter-race", "--strategy", "surw", "--check-determinism=2"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--check-determinism needs runs that a seed alone decides"), "\(run.stderr)")
        let directory = try makeTemporaryDirectory("determinism-result")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = directory.appendingPathComponent("shard.json").path
        let sharded = try SimrunProcess.run(
            ["fuzz", "counter-race", "--shard", "1/2", "--result", result, "--check-determinism"], in: directory)
        #expect(sharded.status == 64 && sharded.stderr.contains("not carried into --result"), "\(sharded.stderr)")
    }

    @Test func runComparesTwoProcessesAndSaysWhereTheyPart() throws {
        let clean = try SimrunProcess.run(["run", "counter-race", "--seed", "4", "--check-determinism"])
        #expect(clean.status == 0 && clean.stdout.contains(": deterministic"), "\(clean.stdout)")
        let clock = try SimrunProcess.run(
            ["run", "unruly-counter", "--variant", "wall-clock", "--seed", "4", "--check-determinism"])
        #expect(clock.status == 1 && clock.stdout.contains("NONDETERMINISTIC"), "\(clock.stdout)")
        #expect(clock.stdout.contains("first divergent event: #"), "\(clock.stdout)")
        let json = try SimrunProcess.run([
            "run", "subject-cancel-deadlock", "--variant", "buggy", "--preempt", "--seed", "0", "--check-determinism",
            "--json",
        ])
        let document = try JSONValue(parsing: json.stdout)
        #expect(document["verdict"]?.stringValue == "deterministic", "\(json.stdout)")
        #expect(document["digests"]?.arrayValue?.count == 2, "\(json.stdout)")
    }
}
