import Foundation
import SimEngine
import SimTestSupport
import Testing

/// `simrun merge` over the result files of real `fuzz --shard` runs: it counts the campaign's
/// distinct schedules as one machine would (the shards carry their digests), and the trace it names
/// for a failure is that failure's, even when the shards saved into one `--out`. The merge rules
/// themselves: SimEngineTests' `CampaignMergeTests`.
@Suite struct MergeCommandTests {
    @Test func mergeCountsTheDistinctSchedulesOneMachineWould() throws {
        let directory = try makeTemporaryDirectory("explored-merge")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["fuzz", "counter-race", "--variant", "fixed", "--strategy", "random", "--seeds", "0..<200"]
        let whole = try SimrunProcess.run(arguments + ["--json"], in: directory)
        let wholeDocument = try JSONValue(
            parsing: String(try #require(whole.stdout.split(separator: "\n").last { $0.hasPrefix("{") })))
        let distinct = try #require(wholeDocument["explored"]?["distinct"]?.intValue)
        var shardSum = 0
        for shard in 1...3 {
            let result = directory.appendingPathComponent("r/\(shard).json").path
            let run = try SimrunProcess.run(arguments + ["--shard", "\(shard)/3", "--result", result], in: directory)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let document = try JSONValue(parsing: try String(contentsOfFile: result, encoding: .utf8))
            let counted = document["explored"]?["distinct"]?.intValue ?? -1
            shardSum += counted
            #expect(document["exploredDigests"]?.stringValue?.count == 16 * counted)
        }
        let merged = try SimrunProcess.run(["merge", directory.appendingPathComponent("r").path], in: directory)
        #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
        #expect(merged.stdout.contains("  explored: \(distinct) distinct schedules of 200 runs"), "\(merged.stdout)")
        #expect(shardSum > distinct, "the shards' own counts overlap: \(shardSum) vs \(distinct)")
    }

    @Test func campaignsSharingAnOutKeepEachOthersTracesAndMergeNamesTheRightOne() throws {
        let directory = try makeTemporaryDirectory("shared-out")
        defer { try? FileManager.default.removeItem(at: directory) }
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
