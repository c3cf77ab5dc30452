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

    @Test(arguments: [tooLong + ".simtrace", longerThanItsTemporary + ".simtrace"])
    func runRefusesANameTooLongBeforeRunning(_ name: String) throws {
        let directory = try makeTemporaryDirectory("long-run")
        let runs = ValueBox(0)
        let out = directory.appendingPathComponent(name).path
        let (status, output) = simrun(["run", "counted-failure", "--out", out], scenarios: [Self.counted(runs)])
        #expect(status == 73, "\(output)")
        #expect(runs.value == 0, "refused before any run")
        #expect(output.contains("too long"), "\(output)")
        #expect(output.split(separator: "\n").count == 1, "one line: \(output)")
    }

    @Test func exportOfANameTooLongIsCannotWriteNotABadTrace() throws {
        let directory = try makeTemporaryDirectory("long-export")
        let trace = directory.appendingPathComponent("t.simtrace").path
        LostInputFixture.record(to: trace)
        for name in [Self.tooLong + ".jsonl", Self.longerThanItsTemporary + ".jsonl"] {
            let (status, output) = simrun(
                ["export", trace, "--format", "jsonl", "--out", directory.appendingPathComponent(name).path])
            #expect(status == 73, "\(name.count): \(output)")
            #expect(output.contains("too long"), "\(output)")
        }
    }

    @Test func shrinkRefusesANameTooLongBeforeShrinking() throws {
        let directory = try makeTemporaryDirectory("long-shrink")
        let runs = ValueBox(0)
        let scenarios = [Self.counted(runs)]
        let trace = directory.appendingPathComponent("t.simtrace").path
        #expect(simrun(["run", "counted-failure", "--out", trace], scenarios: scenarios).0 == 1)
        let before = runs.value
        let out = directory.appendingPathComponent(Self.tooLong + ".simtrace").path
        let (status, output) = simrun(["shrink", trace, "-o", out], scenarios: scenarios)
        #expect(status == 73, "\(output)")
        #expect(runs.value == before, "nothing shrunk before the refusal")
        #expect(output.contains("too long"), "\(output)")
    }

    @Test func fuzzRefusesAResultNameTooLongBeforeRunning() throws {
        let directory = try makeTemporaryDirectory("long-result")
        let runs = ValueBox(0)
        let (status, output) = simrun(
            [
                "fuzz", "counted-failure", "--seeds", "3", "--result",
                directory.appendingPathComponent(Self.tooLong + ".json").path, "--out", directory.path,
            ], scenarios: [Self.counted(runs)])
        #expect(status == 73, "\(output)")
        #expect(runs.value == 0)
    }

    /// The fallback name is short: a wanted name the file system refuses is never tried again there.
    @Test func theFallbackOfANameTooLongIsAShortName() throws {
        let directory = try makeTemporaryDirectory("long-fallback")
        let wanted = directory.appendingPathComponent(Self.longerThanItsTemporary + ".simtrace").path
        var warnings: [String] = []
        let store = FindingStore(warn: { warnings.append($0) })
        let saved = try store.save(to: wanted) { (target: String) throws(SimEngineError) -> String in
            try AtomicFile.write(Array("trace".utf8), to: target)
            return target
        }
        defer { removeScratchDirectory(OutputPath.directory(of: saved.path)) }
        #expect(saved.path != wanted)
        #expect(saved.path.contains("simrun-findings-"), "\(saved.path)")
        #expect((saved.path.split(separator: "/").last?.utf8.count ?? 999) <= 100, "\(saved.path)")
        #expect(FileManager.default.fileExists(atPath: saved.path))
        #expect(warnings.count == 1 && warnings[0].contains(saved.path), "\(warnings)")
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
