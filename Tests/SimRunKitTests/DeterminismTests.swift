import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// The digest a `simrun run` process printed.
func digest(in output: String) -> String? {
    guard let range = output.range(of: "digest ") else { return nil }
    return String(output[range.upperBound...].prefix(16))
}

@Suite struct DeterminismTests {
    // search-stale-response runs its effects as async tasks on the simulation's executor, sleeping on SimClock.
    @Test(arguments: ["counter-race", "lost-input-navigation", "search-stale-response"])
    func theSameSeedInTwoProcessesGivesTheSameDigest(_ scenario: String) throws {
        var digests: [String] = []
        for _ in 0..<2 {
            let output = try SimrunProcess.run(["run", scenario, "--seed", "11", "--strategy", "random"])
            #expect(output.status == 0 || output.status == 1, "\(output.stderr)")
            digests.append(try #require(digest(in: output.stdout)))
        }
        #expect(digests[0] == digests[1])
    }

    /// Two async tasks racing on an actor across `await`s: each seed's interleaving is the same in two
    /// processes, and different seeds give different interleavings (the lost update or not).
    @Test func asyncTasksInterleaveBySeedTheSameWayInEveryProcess() throws {
        var digests = Set<String>()
        for seed in [0, 1, 2, 3] {
            var perProcess: [String] = []
            for _ in 0..<2 {
                let output = try SimrunProcess.run([
                    "run", "counter-race", "--variant", "buggy-async", "--seed", "\(seed)", "--strategy", "random",
                    "--failure-dir", TemporaryFiles.root.path + "/simrun-async",
                ])
                perProcess.append(try #require(digest(in: output.stdout)))
            }
            #expect(perProcess[0] == perProcess[1], "seed \(seed)")
            digests.insert(perProcess[0])
        }
        #expect(digests.count > 1)
        var statuses = Set<Int32>()
        for seed in 0..<60 {
            statuses.insert(
                simrun([
                    "run", "counter-race", "--variant", "buggy-async", "--seed", "\(seed)", "--failure-dir",
                    TemporaryFiles.root.path + "/simrun-async",
                ]).0)
        }
        #expect(statuses == [0, 1], "some seeds lose the update, others do not")
    }

    @Test func differentSeedsGiveDifferentSchedules() {
        var digests = Set<String>()
        for seed in 0..<30 {
            let (_, output) = simrun(["run", "lost-input-navigation", "--seed", "\(seed)", "--strategy", "random"])
            if let value = digest(in: output) { digests.insert(value) }
        }
        #expect(digests.count > 3)
    }

    @Test func fuzzingFindsTheSameFirstFailureWhateverTheNumberOfJobs() {
        func firstSeed(jobs: Int) -> String? {
            let (_, output) = simrun([
                "fuzz", "lost-input-navigation", "--seeds", "0..<500", "--jobs", "\(jobs)", "--no-shrink", "--no-show",
                "--out", TemporaryFiles.root.path + "/simrun-jobs-\(jobs)",
            ])
            return output.split(separator: "\n").first { $0.hasPrefix("FAIL at seed") }.map(String.init)
        }
        let one = firstSeed(jobs: 1)
        #expect(one != nil)
        #expect(one == firstSeed(jobs: 2))
    }

    @Test func shardsTogetherRunExactlyTheSeedsOfOneMachine() {
        func schedules(_ extra: [String]) -> Int {
            let (_, output) = simrun(
                ["fuzz", "counter-race", "--variant", "fixed", "--seeds", "0..<101", "--jobs", "1"] + extra)
            let line = output.split(separator: "\n").first { $0.hasPrefix("summary:") } ?? ""
            return Int(line.split(separator: " ")[1]) ?? -1
        }
        let whole = schedules([])
        let parts = (1...3).map { schedules(["--shard", "\($0)/3"]) }
        #expect(whole == 101)
        #expect(parts.reduce(0, +) == whole)
        #expect(parts == [34, 34, 33])
    }

    @Test func dfsExhaustsTheCounterRaceAndFindsTheLostUpdate() {
        let fixed = simrun(["fuzz", "counter-race", "--variant", "fixed", "--strategy", "dfs:preemptions=3"])
        #expect(fixed.0 == 0)
        #expect(fixed.1.contains("space exhausted"))
        let buggy = simrun([
            "fuzz", "counter-race", "--variant", "buggy", "--strategy", "dfs", "--no-show", "--out",
            TemporaryFiles.root.path + "/simrun-dfs",
        ])
        #expect(buggy.0 == 1)
    }
}
