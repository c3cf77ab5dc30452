import Foundation
import SimBenchmarks
import SimScenarios
import SimTestSupport
import Testing

/// `simrun list`: the app scenarios; `--group sctbench` SCTBench's programs and `--group fixtures`
/// simrun's own fixtures (the capture and carrier probes, unruly-counter), which plain `list` leaves
/// out and which still run by name.
@Suite struct ListCommandTests {
    @Test func listGroupSctbenchShowsTheBenchmarksAndPlainListDoesNot() throws {
        let grouped = try SimrunProcess.run(["list", "--group", "sctbench"])
        #expect(grouped.status == 0)
        for scenario in SCTBench.scenarios { #expect(grouped.stdout.contains(scenario.name)) }
        #expect(!grouped.stdout.contains("lost-input-navigation"))
        let plain = try SimrunProcess.run(["list"])
        #expect(!plain.stdout.contains("account_bad"))
        // Every app scenario and each of its variants.
        for scenario in BuiltinScenarios.all where scenario.group == nil {
            #expect(plain.stdout.contains(scenario.name))
            for variant in scenario.variants { #expect(plain.stdout.contains(variant.name), "\(variant.name)") }
        }
    }

    @Test func anUnknownGroupIsAUsageError() throws {
        let output = try SimrunProcess.run(["list", "--group", "nope"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("no scenario group 'nope' (groups: fixtures, sctbench)"), "\(output.stderr)")
    }

    @Test func aBenchmarkFuzzesFromTheCommandLineAndReportsItsDeadlock() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try SimrunProcess.run([
            "fuzz", "deadlock01_bad", "--strategy", "random", "--seeds", "200", "--jobs", "1", "--out", directory.path,
            "--no-show",
        ])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("FAIL at seed"), "\(output.stdout)")
        #expect(output.stdout.contains("deadlock: every lane blocked"), "\(output.stdout)")
    }

    @Test func theFixturesAreListedInTheirGroupOnlyAndRunByName() throws {
        let fixtures = ["unruly-counter", "capture-probe", "carrier-probe"]
        let plain = try SimrunProcess.run(["list"])
        for name in fixtures { #expect(!plain.stdout.contains(name), "\(name) in `simrun list`") }
        let grouped = try SimrunProcess.run(["list", "--group", "fixtures"])
        #expect(grouped.status == 0)
        for name in fixtures {
            #expect(grouped.stdout.contains(name), "\(name) not in `simrun list --group fixtures`")
        }
        #expect(!grouped.stdout.contains("lost-input-navigation"))
        let run = try SimrunProcess.run(["run", "unruly-counter", "--variant", "set-order", "--seed", "1"])
        #expect(run.status == 0 || run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("unruly-counter/set-order seed 1"), "\(run.stdout)")
    }
}
