import Foundation
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// No crash on resource limits or large numbers (#44, N6, N8, N9, N11, N13): every numeric option is
/// range-checked and says its range, an empty selection is a usage error, narrow terminals get their
/// help, and running out of file descriptors is one clear error with the findings so far kept.
@Suite struct ResourceLimitTests {
    @Test(arguments: [
        (["bench", "--quick", "--only", "kernel", "--scale", "99999999999999"], "--scale <scale>': expected a whole number from 1 to"),
        (["bench", "--quick", "--only", "kernel", "--scale", "0"], "--scale <scale>': expected a whole number from 1 to"),
        (["bench", "--quick", "--only", "kernel", "--scale", "-3"], "--scale <scale>': expected a whole number from 1 to"),
        (["replay", "t.simtrace", "--noise", "-1"], "--noise <noise>': expected a whole number from 0 to 64"),
        (["replay", "t.simtrace", "--noise", "1000000"], "--noise <noise>': expected a whole number from 0 to 64"),
        (["fuzz", "counter-race", "--noise", "99999999999999999999"], "--noise <noise>': expected a whole number from 0 to 64"),
        (["run", "counter-race", "--noise", "-1"], "--noise <noise>': expected a whole number from 0 to 64"),
        (["fuzz", "counter-race", "--check-determinism=0"], "expected a whole number, 1 or more"),
        (["fuzz", "counter-race", "--check-determinism=99999999999999999999"], "expected a whole number, 1 or more"),
    ])
    func everyNumberIsRangeChecked(arguments: [String], message: String) {
        let (status, output) = simrun(arguments)
        #expect(status == 64, "\(arguments): \(output)")
        #expect(output.contains(message), "\(arguments): \(output)")
        #expect(!output.contains("Missing value"), "\(arguments): \(output)")
    }

    /// The binary itself: the number that overflowed the benchmark's sizes is refused, not a trap.
    @Test func aHugeScaleIsAUsageErrorNotATrap() throws {
        let output = try SimrunProcess.run(["bench", "--quick", "--only", "kernel", "--scale", "99999999999999"])
        #expect(output.status == 64, "\(output.stderr)")
        #expect(!output.stderr.contains("overflow"), "\(output.stderr)")
    }

    @Test(arguments: [[""], [","], [" "], [",,"]])
    func anEmptySelectionIsAUsageError(only: [String]) {
        let (status, output) = simrun(["bench", "--quick", "--only"] + only)
        #expect(status == 64, "\(only): \(output)")
        #expect(output.contains("--only"), "\(output)")
    }

    /// ArgumentParser asserts that the help's columns leave room for its indentation: a terminal a few
    /// columns wide must still get the help (exit 0), never a trap.
    @Test(arguments: ["0", "1", "5", "12", "-4", "x"])
    func narrowTerminalsGetTheHelp(columns: String) throws {
        for arguments in [["fuzz", "--help"], ["--help"], ["help", "replay"]] {
            let output = try SimrunProcess.run(arguments, environment: ["COLUMNS": columns])
            #expect(output.status == 0, "COLUMNS=\(columns) \(arguments): \(output.stderr)")
            #expect(output.stdout.contains("USAGE"), "COLUMNS=\(columns) \(arguments)")
        }
    }

    /// With a dozen descriptors `fuzz` cannot start its children: one clear line naming the limit and
    /// exit 73 (or the bug found, 1), never a trap (132) in the process layer.
    @Test func runningOutOfDescriptorsIsAClearErrorNotATrap() throws {
        let directory = try makeTemporaryDirectory("emfile")
        for limit in [10, 12, 16, 20] {
            let output = try SimrunProcess.run(
                executable: URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", SimrunProcess.executable.path, "fuzz",
                    "lost-input-navigation", "--seeds", "200", "--out", "lu", "--no-show",
                ], in: directory)
            let all = output.stdout + output.stderr
            #expect([1, 73].contains(output.status), "ulimit -n \(limit): \(output.status) \(all)")
            #expect(!all.contains("Fatal error"), "ulimit -n \(limit): \(all)")
            if output.status == 73 {
                #expect(output.stderr.contains("open files"), "ulimit -n \(limit): \(output.stderr)")
            } else {
                #expect(output.stdout.contains("FAIL at seed"), "ulimit -n \(limit): \(all)")
            }
        }
    }
}
