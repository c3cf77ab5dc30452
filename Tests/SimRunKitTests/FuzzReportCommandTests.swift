import Foundation
import SimEngine
import SimRunKit
import SimTestSupport
import Testing

/// What `simrun fuzz` (and `run`) say about a campaign besides its findings, as users run them: what
/// was explored and not controlled (a pass over uncontrolled work exits 2), what a learning strategy
/// learned from (once, and in `--json`), potential deadlocks in `--json`, and `--from`'s campaign line
/// and refusals. The figures themselves: SimEngineTests' `ExploredTests`, `InOrderCampaignTests`,
/// `FindingCampaignLockOrderTests` and `SchedulePrefixCampaignTests`.
@Suite struct FuzzReportCommandTests {
    /// The last line of `output` that is a JSON document.
    private func document(_ output: String) throws -> JSONValue {
        try JSONValue(parsing: String(try #require(output.split(separator: "\n").last { $0.hasPrefix("{") }, "\(output)")))
    }

    @Test func theSummaryAndTheJSONSayWhatWasExploredAndWhatWasNotControlled() throws {
        let directory = try makeTemporaryDirectory("explored-report")
        defer { try? FileManager.default.removeItem(at: directory) }
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
        let campaign = try document(json)
        #expect(campaign["verdict"]?.stringValue == "inconclusive" && campaign["exitCode"]?.intValue == 2)
        let explored = try #require(campaign["explored"])
        #expect(explored["distinct"]?.intValue == 2 && explored["atLeast"]?.boolValue == false)
        let first = try #require(explored["uncontrolled"]?.arrayValue?.first)
        #expect(first["kind"]?.stringValue == "invisible-lock" && first["runs"]?.intValue == 40)
        #expect(first["seed"]?.unsignedValue == 0 && first["site"]?.stringValue == "one")
        // `run` says it too, and is no plain pass either.
        let (ran, runJSON) = simrun(["run", "unheld", "--json"], scenarios: [ExitCodeTests.unheld])
        #expect(ran == ExitStatus.inconclusive)
        let run = try document(runJSON)
        #expect(run["verdict"]?.stringValue == "inconclusive")
        let observation = try #require(run["uncontrolled"]?.arrayValue?.first)
        #expect(observation["kind"]?.stringValue == "invisible-lock" && observation["count"]?.intValue == 1)
        let (_, text) = simrun(["run", "unheld"], scenarios: [ExitCodeTests.unheld])
        #expect(text.contains("INCONCLUSIVE"), "\(text)")
        #expect(text.contains("  not controlled: invisible-lock: Mutex.withLock (one)"), "\(text)")
    }

    @Test func theLearningNoteIsSaidOnceAndInTheJSON() throws {
        let directory = try makeTemporaryDirectory("learning")
        defer { try? FileManager.default.removeItem(at: directory) }
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

    @Test func potentialDeadlocksAreInTheJSON() throws {
        let directory = try makeTemporaryDirectory("lock-order")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            [
                "fuzz", "shared-dependency-deadlock", "--variant", "buggy", "--preempt", "--seeds", "1..<4", "--no-show",
                "--out", "out", "--json",
            ], in: directory)
        #expect(fuzz.status == 1, "locks taken both ways are a finding: \(fuzz.stdout)\(fuzz.stderr)")
        let campaign = try document(fuzz.stdout)
        #expect(campaign["failures"]?.intValue == 0, "every run of the campaign passed")
        let potential = try #require(campaign["potentialDeadlocks"]?.arrayValue?.first, "\(fuzz.stdout)")
        #expect(potential["first"]?["held"]?.stringValue == "lock made in DependencyCache.init()")
        #expect(potential["first"]?["takenAt"]?.stringValue == "lock PersistentReferences.reference(_:make:)")
        let traces = potential["traces"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(traces.count == 2 && potential["aimedDeadlockSeed"]?.unsignedValue != nil, "\(fuzz.stdout)")
        for trace in traces {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(trace).path), "\(trace)")
        }
    }

    @Test func fromTakesTheScenarioFromTheTraceAndIsRequiredOtherwise() throws {
        let directory = try makeTemporaryDirectory("fuzz-from")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try failingTrace("counter-race", in: directory)
        let (_, output) = simrun([
            "fuzz", "--from", trace, "--keep", "1", "--seeds", "0..<50", "--out", directory.path, "--no-show",
        ])
        let lines = output.split(separator: "\n")
        #expect(lines.contains { $0.contains("fuzz counter-race/buggy") && $0.contains("keeping 1 of") }, "\(output)")
        #expect(simrun(["fuzz", "--seeds", "5"]).0 == 64)
        #expect(simrun(["fuzz", "counter-race", "--keep", "1"]).0 == 64)
        #expect(simrun(["fuzz", "--from", directory.appendingPathComponent("nope.simtrace").path]).0 == 66)
    }
}
