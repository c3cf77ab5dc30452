import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimTestSupport
import Testing

/// "Explored" is a figure, and "nothing explored" is not a pass (issue #40): `fuzz` (in worker
/// processes and on threads), its `--json`, shard results and `merge` say how many distinct
/// schedules ran and what the runs did not control, and a pass over uncontrolled work exits 2.
@Suite struct ExploredReportTests {
    @Test func theSummaryAndTheJSONSayWhatWasExploredAndWhatWasNotControlled() throws {
        let directory = try makeTemporaryDirectory("explored-report")
        let (status, output) = simrun(
            ["fuzz", "unheld", "--seeds", "5", "--strategy", "fifo", "--out", directory.path],
            scenarios: [ExitCodeTests.unheld])
        #expect(status == ExitStatus.inconclusive, "\(output)")
        #expect(output.contains("  explored: 1 distinct schedule of 5 runs"), "\(output)")
        #expect(
            output.contains("  not controlled: invisible-lock in 5 of 5 runs (first at seed 0: Mutex.withLock, one)"),
            "\(output)")
        #expect(
            output.contains(
                "  not a plain pass: every schedule was the same, and the runs used what simrun did not control (invisible-lock)"
            ), "\(output)")
        let (_, json) = simrun(
            ["fuzz", "unheld", "--seeds", "0..<40", "--strategy", "random", "--out", directory.path, "--json"],
            scenarios: [ExitCodeTests.unheld])
        let document = try JSONValue(parsing: try #require(json.split(separator: "\n").last { $0.hasPrefix("{") }).description)
        #expect(document["verdict"]?.stringValue == "inconclusive")
        #expect(document["exitCode"]?.intValue == 2)
        let explored = try #require(document["explored"])
        #expect(explored["distinct"]?.intValue == 2 && explored["atLeast"]?.boolValue == false)
        let first = try #require(explored["uncontrolled"]?.arrayValue?.first)
        #expect(first["kind"]?.stringValue == "invisible-lock" && first["runs"]?.intValue == 40)
        #expect(first["seed"]?.unsignedValue == 0 && first["site"]?.stringValue == "one")
    }

    /// In worker processes the board counts the schedules and the kinds, and each worker names a
    /// kind's first example once: here every run of `dispatch-source-data` escapes.
    @Test func workerProcessesReportTheEscapesTheirRunsSaw() throws {
        let run = try SimrunProcess.run([
            "fuzz", "capture-probe", "--variant", "dispatch-source-data", "--seeds", "0..<6", "--keep-going",
            "--no-shrink", "--no-show", "--json",
        ])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").last { $0.hasPrefix("{") })
        let document = try JSONValue(parsing: String(line))
        let explored = try #require(document["explored"])
        #expect(explored["runs"]?.intValue == 6)
        let escape = try #require(explored["uncontrolled"]?.arrayValue?.first)
        #expect(escape["kind"]?.stringValue == "escape" && escape["runs"]?.intValue == 6, "\(explored)")
        #expect(escape["seed"]?.unsignedValue == 0)
        #expect(escape["detail"]?.stringValue?.contains("DispatchSource") == true, "\(escape)")
    }

    /// Shards carry their schedule digests, so `merge` counts the campaign's distinct schedules (the
    /// union), not the shards' sum.
    @Test func mergeCountsTheDistinctSchedulesOneMachineWould() throws {
        let directory = try makeTemporaryDirectory("explored-merge")
        let whole = try SimrunProcess.run(
            ["fuzz", "counter-race", "--variant", "fixed", "--strategy", "random", "--seeds", "0..<200", "--json"],
            in: directory)
        let wholeDocument = try JSONValue(
            parsing: String(try #require(whole.stdout.split(separator: "\n").last { $0.hasPrefix("{") })))
        let distinct = try #require(wholeDocument["explored"]?["distinct"]?.intValue)
        var shardSum = 0
        for shard in 1...3 {
            let result = directory.appendingPathComponent("r/\(shard).json").path
            let run = try SimrunProcess.run(
                [
                    "fuzz", "counter-race", "--variant", "fixed", "--strategy", "random", "--seeds", "0..<200",
                    "--shard", "\(shard)/3", "--result", result,
                ], in: directory)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let document = try JSONValue(parsing: try String(contentsOfFile: result, encoding: .utf8))
            shardSum += document["explored"]?["distinct"]?.intValue ?? 0
            #expect(document["exploredDigests"]?.stringValue?.count == 16 * (document["explored"]?["distinct"]?.intValue ?? -1))
        }
        let merged = try SimrunProcess.run(["merge", directory.appendingPathComponent("r").path], in: directory)
        #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
        #expect(merged.stdout.contains("  explored: \(distinct) distinct schedules of 200 runs"), "\(merged.stdout)")
        #expect(shardSum > distinct, "the shards' own counts overlap: \(shardSum) vs \(distinct)")
    }

    @Test func runSaysWhatItDidNotControlAndIsNoPlainPass() throws {
        let (status, output) = simrun(["run", "unheld", "--json"], scenarios: [ExitCodeTests.unheld])
        #expect(status == ExitStatus.inconclusive)
        let document = try JSONValue(parsing: try #require(output.split(separator: "\n").last { $0.hasPrefix("{") }).description)
        #expect(document["verdict"]?.stringValue == "inconclusive")
        let observation = try #require(document["uncontrolled"]?.arrayValue?.first)
        #expect(observation["kind"]?.stringValue == "invisible-lock" && observation["count"]?.intValue == 1)
        let (_, text) = simrun(["run", "unheld"], scenarios: [ExitCodeTests.unheld])
        #expect(text.contains("INCONCLUSIVE"), "\(text)")
        #expect(text.contains("  not controlled: invisible-lock: Mutex.withLock (one)"), "\(text)")
    }
}
