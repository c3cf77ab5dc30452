import Foundation
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// The command line run in this process, over `scenarios` (by default the built-in ones): the one
/// in-process driver, for scenarios a test defines (a child process cannot reach them) and for the
/// name a user's executable gives itself. Everything else runs the binary (`SimrunProcess`).
/// Returns the exit status and every printed line, stderr's prefixed `err: `. A `run` without
/// `--out` or `--failure-dir` writes its failing trace to a temporary directory, not into the package.
func simrun(
    _ arguments: [String], scenarios: [Scenario] = BuiltinScenarios.all, programName: String? = nil
) -> (Int32, String) {
    var arguments = arguments
    if arguments.first == "run" && !arguments.contains("--out") && !arguments.contains("--failure-dir") {
        arguments += ["--failure-dir", TemporaryFiles.root.appendingPathComponent("run-failures").path]
    }
    let console = Console(capturing: true)
    let status =
        if let programName {
            SimRun.run(arguments: arguments, scenarios: scenarios, console: console, programName: programName)
        } else {
            SimRun.run(arguments: arguments, scenarios: scenarios, console: console)
        }
    return (status, console.capturedLines.joined(separator: "\n"))
}

/// The lines of `output` (as `simrun` returns it) that went to stdout.
func stdoutLines(_ output: String) -> [String] {
    output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        .filter { !$0.hasPrefix("err: ") && !$0.isEmpty }
}

/// Fuzzes `scenario` into `directory` and returns the path of its (shrunk) failing trace.
func failingTrace(_ scenario: String, in directory: URL, seeds: String = "0..<500") throws -> String {
    let out = directory.appendingPathComponent("found-\(scenario)").path
    let (status, output) = simrun(["fuzz", scenario, "--seeds", seeds, "--out", out, "--no-show"])
    #expect(status == 1, "fuzz found no failure in \(scenario): \(output)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".simtrace") }
    return out + "/" + (try #require(names.sorted().first))
}

/// The flagship bug as the CLI tests use it: the lowest seed at which `pct` fails lost-input-navigation
/// (found by fuzzing with one job, so it follows the scenario as it is), and that seed's trace.
enum LostInputFixture {
    /// The lowest failing `pct` seed.
    static let seed: UInt64 = {
        let out = TemporaryFiles.path("lost-input-seed")
        let (_, output) = simrun(["fuzz", "lost-input-navigation", "--jobs", "1", "--no-shrink", "--json", "--out", out])
        let line = stdoutLines(output).first { $0.hasPrefix("{") } ?? "{}"
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let findings = object?["findings"] as? [[String: Any]]
        return (findings?.first?["seed"] as? NSNumber)?.uint64Value ?? .max
    }()

    /// `run` arguments that record the failing seed (add `--out`).
    static var run: [String] { ["run", "lost-input-navigation", "--seed", "\(seed)", "--strategy", "pct"] }

    /// Records the failing seed's trace at `path`.
    static func record(to path: String) {
        #expect(seed != .max, "fuzz finds the lost-input bug")
        #expect(simrun(run + ["--out", path]).0 == 1, "seed \(seed) fails")
    }
}
