import Foundation
import SimTestSupport
import Testing

/// Four `fuzz --shard K/4 --result` processes and `simrun merge` give what one `fuzz` over the same
/// seeds prints: the same lowest failing seed and failure, the same exit code, every seed covered;
/// a lost shard fails the merge with its seeds named.
@Suite struct ShardMergeEndToEndTests {
    /// The FAIL/CRASH lines: the verdict as a user reads it.
    func verdictLines(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("FAIL at seed") || $0.hasPrefix("CRASH at seed")
        }
    }

    /// Runs the four shards of `variant` over `seeds` (shard 3 through SIMRUN_SHARD and --shard auto).
    func runShards(_ variant: String, seeds: String, in directory: URL) throws {
        for number in 1...4 {
            let shard = number == 3 ? ["--shard", "auto"] : ["--shard", "\(number)/4"]
            let run = try SimrunProcess.run(
                ["fuzz", "lost-input-navigation", "--variant", variant, "--seeds", seeds, "--jobs", "1", "--no-show"]
                    + shard + ["--out", "traces-\(number)", "--result", "results/shard-\(number).json"],
                in: directory, environment: number == 3 ? ["SIMRUN_SHARD": "3/4"] : [:])
            #expect(run.status == 0 || run.status == 1, "shard \(number): \(run.stderr)")
        }
    }

    @Test func fourShardsMergedGiveOneMachinesVerdictForABuggyVariant() throws {
        let directory = try makeTemporaryDirectory("shards-buggy")
        defer { try? FileManager.default.removeItem(at: directory) }
        try runShards("buggy", seeds: "0..<400", in: directory)
        let merged = try SimrunProcess.run(["merge", "results", "--out", "merged"], in: directory)
        let single = try SimrunProcess.run(
            ["fuzz", "lost-input-navigation", "--seeds", "0..<400", "--no-show", "--out", "single"], in: directory)
        #expect(merged.status == 1 && single.status == 1, "\(merged.stdout)\n\(merged.stderr)")
        #expect(!verdictLines(merged.stdout).isEmpty && verdictLines(merged.stdout) == verdictLines(single.stdout))
        #expect(merged.stdout.contains("covered: every seed of 0..<"), "\(merged.stdout)")
        // The winning trace, copied under the name fuzz gives it, replays to the same failure.
        let trace = "merged/lost-input-navigation-buggy-typed-text-kept.simtrace"
        #expect(merged.stdout.contains("  trace:  \(trace)"))
        let replay = try SimrunProcess.run(["replay", trace], in: directory)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")  // identical to the recording
        let fixed = try SimrunProcess.run(["replay", trace, "--variant", "fixed"], in: directory)
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }

    @Test func fourShardsMergedGiveOneMachinesVerdictForAFixedVariantAndALostShardFails() throws {
        let directory = try makeTemporaryDirectory("shards-fixed")
        defer { try? FileManager.default.removeItem(at: directory) }
        try runShards("fixed", seeds: "0..<400", in: directory)
        let merged = try SimrunProcess.run(["merge", "results"], in: directory)
        let single = try SimrunProcess.run(
            ["fuzz", "lost-input-navigation", "--variant", "fixed", "--seeds", "0..<400", "--out", "single"],
            in: directory)
        #expect(merged.status == 0 && single.status == 0, "\(merged.stdout)\n\(merged.stderr)")
        #expect(verdictLines(merged.stdout).isEmpty && verdictLines(single.stdout).isEmpty)
        #expect(
            merged.stdout.contains("summary: 400 schedules in 4 shards")
                && single.stdout.contains("summary: 400 schedules"))
        #expect(merged.stdout.contains("covered: every seed of 0..<400 exactly once"))
        // The `sometimes` counts summed over shards are one machine's counts.
        let goals = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("  sometimes") } }
        #expect(!goals(merged.stdout).isEmpty && goals(merged.stdout) == goals(single.stdout))

        try FileManager.default.removeItem(at: directory.appendingPathComponent("results/shard-2.json"))
        let lost = try SimrunProcess.run(["merge", "results"], in: directory)
        #expect(lost.status == 66, "\(lost.stdout)\(lost.stderr)")
        #expect(
            lost.stdout.contains("missing: seeds 1, 5, …, 397 (every 4th, 100 seeds) of 0..<400 were run by no shard"))
        #expect(lost.stdout.contains("rerun it with --shard 2/4"))
    }

    @Test func resultNeedsASeedRangeAndAWritablePlace() throws {
        let time = try SimrunProcess.run(["fuzz", "counter-race", "--time", "1", "--result", "r.json"])
        #expect(time.status == 64 && time.stderr.contains("--result needs a seed range"), "\(time.stderr)")
        let place = try SimrunProcess.run(["fuzz", "counter-race", "--seeds", "4", "--result", "/proc/no/r.json"])
        #expect(place.status == 73, "\(place.stderr)")
        #expect(!place.stdout.contains("summary:"), "the campaign must not run before the result's place is known")
        let nothing = try SimrunProcess.run(["merge", "no-such-dir"])
        #expect(nothing.status == 66 && nothing.stderr.contains("no-such-dir"))
    }

    @Test func fuzzShardAutoIsAUsageErrorWithoutAnEngineAndRunsTheShardWithOne() throws {
        let bare = try SimrunProcess.run(
            ["fuzz", "counter-race", "--seeds", "0..<8", "--shard", "auto"], environment: [:])
        #expect(bare.status == 64, "\(bare.stderr)")
        #expect(bare.stderr.contains("--shard auto found no shard"))
        let slurm = try SimrunProcess.run(
            ["fuzz", "counter-race", "--variant", "fixed", "--seeds", "0..<8", "--shard", "auto", "--jobs", "1"],
            environment: ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_MAX": "7"])
        #expect(slurm.status == 0, "\(slurm.stderr)")
        #expect(slurm.stderr.contains("shard 2/4 (slurm)"), "\(slurm.stderr)")
        #expect(slurm.stdout.contains("summary: 2 schedules"), "\(slurm.stdout)")
        let stray = try SimrunProcess.run(["fuzz", "counter-race", "--shards", "4"], environment: [:])
        #expect(stray.status == 64 && stray.stderr.contains("--shards is for --shard auto"), "\(stray.stderr)")
    }
}
