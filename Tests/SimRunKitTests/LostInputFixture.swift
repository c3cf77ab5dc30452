import Foundation
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// The flagship bug as the CLI tests use it: the lowest seed at which `pct` fails lost-input-navigation
/// (found by fuzzing with one job, so it follows the scenario as it is), and that seed's trace.
enum LostInputFixture {
    /// The lowest failing `pct` seed.
    static let seed: UInt64 = {
        let console = Console(capturing: true)
        let out = TemporaryFiles.path("lost-input-seed")
        _ = SimRun.run(
            arguments: ["fuzz", "lost-input-navigation", "--jobs", "1", "--no-shrink", "--json", "--out", out],
            scenarios: BuiltinScenarios.all, console: console)
        let line = console.capturedLines.first { $0.hasPrefix("{") } ?? "{}"
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
