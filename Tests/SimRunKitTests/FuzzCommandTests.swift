import Foundation
import SimEngine
import SimTestSupport
import Testing

/// What `simrun fuzz` says about a campaign beyond its findings.
@Suite struct FuzzCommandTests {
    /// An exhausted dfs bound says what the proof covers: what a preemption is and how to raise the
    /// bound (#28 defect 7; the campaign itself: SimEngineTests' `ExhaustiveCampaignTests`).
    @Test func anExhaustedBoundSaysWhatAPreemptionIsAndHowToRaiseIt() throws {
        let output = try SimrunProcess.run([
            "fuzz", "blueprint-reentrant-update-crash", "--strategy", "dfs", "--seeds", "1000", "--no-show",
        ])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("space exhausted"), "\(output.stdout)")
        #expect(output.stdout.contains("no failure with at most 2 preemptions"), "\(output.stdout)")
        #expect(output.stdout.contains("dfs:preemptions=P"), "\(output.stdout)")
    }

    /// A model that traps on the fifo schedule (the campaign's finding: SimEngineTests'
    /// `FifoCrashTests`): exit 1, the crash said with its job and trace, in text and in `--json`.
    @Test func aCrashOnTheFifoScheduleIsSaidWithItsJobAndTrace() throws {
        let directory = try makeTemporaryDirectory("fuzz-fifo-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("f").path
        let fuzz = try SimrunProcess.run([
            "fuzz", "unruly-counter", "--variant", "crashing-always", "--seeds", "20", "--out", out,
        ])
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH on the fifo schedule (seed 0)"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("worker.a always traps"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("in job worker.a/write#1"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("trace:  \(out)/unruly-counter-crashing-always-crashed.simtrace"), "\(fuzz.stdout)")
        let jsonOut = directory.appendingPathComponent("j").path
        let json = try SimrunProcess.run([
            "fuzz", "unruly-counter", "--variant", "crashing-always", "--seeds", "20", "--out", jsonOut, "--json",
        ])
        #expect(json.status == 1, "\(json.stdout)\(json.stderr)")
        let document = try JSONValue(parsing: json.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(document["verdict"]?.stringValue == "fail", "\(json.stdout)")
        #expect(json.stdout.contains("\"oracle\":\"crashed\""), "\(json.stdout)")
        #expect(FileManager.default.fileExists(atPath: jsonOut + "/unruly-counter-crashing-always-crashed.simtrace"))
    }

    /// An in-order campaign whose run traps ends there: exit 1 and the crash's seed (the campaign:
    /// SimEngineTests' `CrashCampaignTests`).
    @Test func anInOrderCampaignThatTrapsSaysCrashAtSeed() throws {
        let directory = try makeTemporaryDirectory("fuzz-inorder-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run([
            "fuzz", "blueprint-reentrant-update-crash", "--strategy", "surw", "--seeds", "200", "--no-show", "--out",
            directory.appendingPathComponent("c").path,
        ])
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH at seed"), "\(fuzz.stdout)")
    }

    /// `--check-determinism` over seeds that trap says which trapped the same way in both processes,
    /// and that every seed was compared (the comparison: SimEngineTests' `CrashCampaignTests`).
    @Test func aDeterminismCheckOverSeedsThatTrapListsTheDeterministicCrashes() throws {
        let directory = try makeTemporaryDirectory("fuzz-determinism-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            [
                "fuzz", "unruly-counter", "--variant", "crashing", "--strategy", "random", "--seeds", "40",
                "--keep-going", "--check-determinism", "--no-show", "--out",
                directory.appendingPathComponent("out").path,
            ], in: directory)
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH"), "\(fuzz.stdout)")
        #expect(!fuzz.stdout.contains("NOT COMPLETE"), "\(fuzz.stdout)")
        #expect(!fuzz.stdout.contains("NONDETERMINISTIC"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("determinism: 40 seeds checked"), "\(fuzz.stdout)")
        #expect(
            fuzz.stdout.contains("trapped the same way in both processes (deterministic crash): seeds 7, 9,"),
            "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains(": Precondition failed: stale write"), "\(fuzz.stdout)")
    }
}
