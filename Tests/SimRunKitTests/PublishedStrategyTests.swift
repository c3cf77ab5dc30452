import Foundation
import SimCore
import SimEngine
import SimTestSupport
import Testing

/// `surw` (the selective walk as published) and `rff` (reads-from fuzzing) from the command line:
/// a campaign is the same in two processes, and says once what the strategy learned from, or why it
/// could not.
@Suite struct PublishedStrategyTests {
    /// The campaign's outcome lines without timings: first failure, failures, learning note.
    private func outcome(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            if line.hasPrefix("FAIL at seed") || line.hasPrefix("  learning:") { return String(line) }
            if line.hasPrefix("summary:") {
                return line.split(separator: ",").filter { $0.contains("failures") || $0.contains("distinct") }
                    .joined(separator: ",")
            }
            return nil
        }
    }

    @Test(arguments: ["surw", "rff"])
    func aLearningCampaignIsTheSameInTwoProcesses(_ strategy: String) throws {
        var seen: [[String]] = []
        for _ in 0..<2 {
            let directory = try makeTemporaryDirectory()
            let output = try SimrunProcess.run([
                "fuzz", "reorder_10_bad", "--strategy", strategy, "--seeds", "0..<400", "--keep-going",
                "--no-shrink", "--no-show", "--out", directory.path,
            ])
            #expect(output.status == 1, "\(strategy): \(output.stdout)")
            seen.append(outcome(output.stdout))
        }
        #expect(seen[0] == seen[1])
        #expect(seen[0].contains { $0.hasPrefix("FAIL at seed") })
        #expect(seen[0].contains { $0.hasPrefix("  learning: \(strategy)") })
    }

    @Test func theLearningNoteIsSaidOnceAndInTheJSON() throws {
        let directory = try makeTemporaryDirectory()
        let (_, text) = simrun([
            "fuzz", "twostage_bad", "--strategy", "rff", "--seeds", "50", "--keep-going", "--no-shrink", "--no-show",
            "--out", directory.path,
        ])
        #expect(text.components(separatedBy: "learning: rff learned from").count == 2, "\(text)")
        let (_, json) = simrun([
            "fuzz", "twostage_bad", "--strategy", "surw", "--seeds", "50", "--keep-going", "--no-shrink", "--no-show",
            "--out", directory.path, "--json",
        ])
        #expect(json.contains("\"learning\":\"surw selected from"), "\(json)")
    }

    /// The async scenarios keep their state in actors, not shared cells: the strategies still run
    /// there (as partial order sampling and a random-priority walk) and say they cannot learn.
    @Test(arguments: ["surw", "rff"])
    func withoutSharedCellsTheStrategySaysItCannotLearn(_ strategy: String) throws {
        let directory = try makeTemporaryDirectory()
        let (status, output) = simrun([
            "fuzz", "counter-race", "--variant", "buggy-async", "--strategy", strategy, "--seeds", "200",
            "--no-shrink", "--no-show", "--out", directory.path,
        ])
        #expect(status == 0 || status == 1)
        #expect(output.contains("learning: \(strategy) cannot"), "\(output)")
    }
}
