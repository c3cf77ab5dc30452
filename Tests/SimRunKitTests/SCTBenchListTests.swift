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
        #expect(output.contains("no scenario group 'nope' (groups: sctbench)"))
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
