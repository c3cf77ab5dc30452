import Foundation
import SimTestSupport
import Testing

/// No crash on resource limits (#44, N6, N8, N9, N11, N13): narrow terminals get their help, and
/// running out of file descriptors is one clear error with the findings so far kept. (Numbers out of
/// range and empty selections: StrictParsingTests.)
@Suite struct ResourceLimitTests {
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
