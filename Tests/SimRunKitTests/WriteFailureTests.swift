import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// A finding survives every write failure (#44, N3): a name the file system refuses is known before
/// the work where it can be (73 at once), and a finding whose trace still cannot be saved where asked
/// is saved under a short name in a fresh temporary directory, or at least printed with exit 1.
@Suite struct WriteFailureTests {
    /// A file name longer than any file system takes (NAME_MAX is 255 bytes on Linux and macOS).
    static let tooLong = String(repeating: "a", count: 300)
    /// A name the file system takes, but not with the temporary suffix written first (`.tmp-PID-N`).
    static let longerThanItsTemporary = String(repeating: "b", count: 240)

    /// A scenario that fails, counting its runs: none may run when the output is refused up front.
    static func counted(_ runs: ValueBox<Int>) -> Scenario {
        Scenario(name: "counted-failure", summary: "", variants: [.init("v", "")]) { simulation, _ in
            runs.value += 1
            simulation.post(on: "main", "fail") { simulation.fail("always", "it fails") }
        }
    }

    /// `run`, `shrink`, `export` and `fuzz --result` refuse a name the file system cannot take, or
    /// cannot take with the temporary suffix, with one line and 73 before any run (never 65, a bad
    /// trace, for `export`).
    @Test(arguments: [tooLong, longerThanItsTemporary])
    func aNameTooLongIsRefusedBeforeAnyRun(_ name: String) throws {
        let directory = try makeTemporaryDirectory("long-name")
        defer { try? FileManager.default.removeItem(at: directory) }
        let runs = ValueBox(0)
        let scenarios = [Self.counted(runs)]
        let trace = directory.appendingPathComponent("t.simtrace").path
        #expect(simrun(["run", "counted-failure", "--out", trace], scenarios: scenarios).0 == 1)
        let long = { (suffix: String) in directory.appendingPathComponent(name + suffix).path }
        for arguments in [
            ["run", "counted-failure", "--out", long(".simtrace")], ["shrink", trace, "-o", long(".simtrace")],
            ["export", trace, "--format", "jsonl", "--out", long(".jsonl")],
            ["fuzz", "counted-failure", "--seeds", "3", "--result", long(".json"), "--out", directory.path],
        ] {
            let before = runs.value
            let (status, output) = simrun(arguments, scenarios: scenarios)
            #expect(status == 73, "\(arguments[0]) \(name.count): \(output)")
            #expect(runs.value == before, "\(arguments[0]): refused before any run")
            #expect(output.contains("too long"), "\(arguments[0]): \(output)")
            #expect(output.split(separator: "\n").count == 1, "\(arguments[0]): one line: \(output)")
        }
    }

    /// When neither the place asked for nor the temporary directory can hold the trace, the finding is
    /// still printed (the FAIL line, the reason it is not saved) and the exit code is the finding's.
    @Test func aRunWhoseTraceCannotBeSavedAnywhereStillReportsItsFailure() throws {
        let directory = try makeTemporaryDirectory("nowhere")
        // `out` leads nowhere once the run writes (a dangling link where its directory should be), and
        // TMPDIR does not exist: both saves fail after the up-front check passed.
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("gone").path, withDestinationPath: "/nonexistent-simrun-dir")
        let output = try SimrunProcess.run(
            ["run", "lost-input-navigation", "--seed", "\(LostInputFixture.seed)", "--out", "gone/t.simtrace"],
            in: directory, environment: ["TMPDIR": directory.appendingPathComponent("missing").path])
        #expect(output.status == 1, "bug found, whatever the saves did: \(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("FAIL"), "\(output.stdout)")
        #expect(output.stderr.contains("not saved"), "\(output.stderr)")
    }
}
