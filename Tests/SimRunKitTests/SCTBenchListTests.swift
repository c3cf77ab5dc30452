import SimBenchmarks
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@Suite struct SCTBenchListTests {
    @Test func listGroupSctbenchShowsTheBenchmarksAndPlainListDoesNot() {
        let (status, grouped) = simrun(["list", "--group", "sctbench"])
        #expect(status == 0)
        for scenario in SCTBench.scenarios { #expect(grouped.contains(scenario.name)) }
        #expect(!grouped.contains("lost-input-navigation"))
        let (_, plain) = simrun(["list"])
        #expect(!plain.contains("account_bad"))
        #expect(plain.contains("lost-input-navigation"))
    }

    @Test func anUnknownGroupIsAUsageError() {
        let (status, output) = simrun(["list", "--group", "nope"])
        #expect(status == 64)
        #expect(output.contains("no scenario group 'nope' (groups: fixtures, sctbench)"))
    }

    @Test func aBenchmarkFuzzesFromTheCommandLineAndReportsItsDeadlock() throws {
        let directory = try makeTemporaryDirectory()
        let (status, output) = simrun([
            "fuzz", "deadlock01_bad", "--strategy", "random", "--seeds", "200", "--jobs", "1", "--out", directory.path,
            "--no-show",
        ])
        #expect(status == 1)
        #expect(output.contains("FAIL at seed"))
        #expect(output.contains("deadlock: every lane blocked"))
    }
}

@Suite struct LearningStrategyCampaignTests {
    /// The first failing seed and its printed verdict, from a fuzz campaign's output.
    private func firstFailure(_ strategy: String, jobs: Int) throws -> String {
        let directory = try makeTemporaryDirectory()
        let (status, output) = simrun([
            "fuzz", "reorder_4_bad", "--strategy", strategy, "--seeds", "3000", "--jobs", "\(jobs)", "--no-shrink",
            "--no-show", "--out", directory.path,
        ])
        #expect(status == 1, "\(strategy) found nothing in 3000 schedules")
        return output.split(separator: "\n").first { $0.hasPrefix("FAIL at seed") }.map(String.init) ?? ""
    }

    @Test(arguments: ["pos", "surw", "nsurw", "rff", "coverage", "portfolio"])
    func theFirstFailureIsTheSameWhateverTheJobs(_ strategy: String) throws {
        let alone = try firstFailure(strategy, jobs: 1)
        #expect(alone.hasPrefix("FAIL at seed"))
        #expect(try firstFailure(strategy, jobs: 3) == alone)
    }
}

/// simrun's own fixtures (the capture and carrier probes, unruly-counter) are not app scenarios:
/// `simrun list` leaves them out, `--group fixtures` lists them, and they still run by name.
@Suite struct FixtureListTests {
    @Test func theFixturesAreListedInTheirGroupOnlyAndRunByName() {
        let fixtures = ["unruly-counter", "capture-probe", "carrier-probe"]
        let (_, plain) = simrun(["list"])
        for name in fixtures { #expect(!plain.contains(name), "\(name) in `simrun list`") }
        let (status, grouped) = simrun(["list", "--group", "fixtures"])
        #expect(status == 0)
        for name in fixtures { #expect(grouped.contains(name), "\(name) not in `simrun list --group fixtures`") }
        #expect(!grouped.contains("lost-input-navigation"))
        let (runStatus, run) = simrun(["run", "unruly-counter", "--variant", "set-order", "--seed", "1"])
        #expect(runStatus == 0 || runStatus == 1, "\(run)")
        #expect(run.contains("unruly-counter/set-order seed 1"), "\(run)")
    }
}
