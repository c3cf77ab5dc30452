import Foundation
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// Runs simrun command lines in-process over the built-in scenarios, and makes failing traces.
enum Understanding {
    struct Output {
        var status: Int32
        /// What went to stdout.
        var out: String
        var lines: [String]
    }

    static func simrun(_ arguments: [String]) -> Output {
        let console = Console(capturing: true)
        let status = SimRun.run(arguments: arguments, scenarios: BuiltinScenarios.all, console: console)
        return Output(status: status, out: console.capturedOutput, lines: console.capturedLines)
    }

    /// Fuzzes `scenario` into `directory` and returns the path of its (shrunk) failing trace.
    static func failingTrace(_ scenario: String, in directory: URL, seeds: String = "0..<500") throws -> String {
        let out = directory.appendingPathComponent("found-\(scenario)").path
        let run = simrun(["fuzz", scenario, "--seeds", seeds, "--out", out, "--no-show"])
        #expect(run.status == 1, "fuzz found no failure in \(scenario): \(run.out)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".simtrace") }
        let name = try #require(names.sorted().first)
        return out + "/" + name
    }
}
