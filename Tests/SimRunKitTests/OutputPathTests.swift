import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// Output paths are checked before any work starts, and a finding that cannot be saved where asked
/// is saved elsewhere, never lost, and never turns "bug found" (1) into "cannot write" (73).
@Suite struct OutputPathTests {
    @Test func fuzzWithAnUnwritableOutExitsSeventyThreeBeforeRunningAnySchedule() throws {
        let output = try SimrunProcess.run(["fuzz", "lost-input-navigation", "--out", "/proc/x"])
        #expect(output.status == 73, "\(output.stderr)")
        #expect(output.stdout.isEmpty, "nothing ran, nothing found: \(output.stdout)")
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(output.stderr)")
        #expect(output.stderr.contains("--out /proc/x: cannot write in /proc"), "\(output.stderr)")
        #expect(!output.stderr.contains("errno"), "the reason in words: \(output.stderr)")

        // In process: a scenario that counts its runs proves that none ran.
        let runs = ValueBox(0)
        let counted = Scenario(name: "counted", summary: "", variants: [.init("v", "")]) { _, _ in runs.value += 1 }
        let (status, _) = simrun(["fuzz", "counted", "--out", "/proc/x"], scenarios: [counted])
        #expect(status == 73)
        #expect(runs.value == 0, "no schedule (not even the probe) ran before the check")
    }

    @Test func aPassingCampaignLeavesNoEmptyOutputDirectory() throws {
        let directory = try makeTemporaryDirectory("no-empty-out")
        let out = directory.appendingPathComponent("not/yet/there").path
        let (status, output) = simrun(["fuzz", "counter-race", "--variant", "fixed", "--seeds", "3", "--out", out])
        #expect(status == 0, "\(output)")
        #expect(!FileManager.default.fileExists(atPath: out), "checked, not created, when nothing is found")
    }

    @Test func anOutThatIsAFileOrUnderAFileIsRefusedUpFront() throws {
        let directory = try makeTemporaryDirectory("out-file")
        let file = directory.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        let (status, output) = simrun(["fuzz", "counter-race", "--out", file.path])
        #expect(status == 73)
        #expect(output.contains("is a file, not a directory"), "\(output)")
        let run = simrun(["run", "counter-race", "--out", file.path + "/t.simtrace"])
        #expect(run.0 == 73, "\(run.1)")
        let export = simrun(["export", "/nonexistent.simtrace", "--format", "jsonl", "--out", directory.path])
        #expect(export.0 == 73 && export.1.contains("is a directory"), "output is checked before input: \(export.1)")
    }

    @Test func aMissingTraceCreatesNoOutputDirectoryButARunMakesItsOwn() throws {
        let directory = try makeTemporaryDirectory("shrink-missing")
        let absent = directory.appendingPathComponent("absent").path
        let (status, _) = simrun(["shrink", absent + "/t.simtrace"])
        #expect(status == 66)
        #expect(!FileManager.default.fileExists(atPath: absent), "the default output's directory is not made")
        let export = simrun(["export", absent + "/t.simtrace", "--format", "jsonl", "--out", absent + "/t.jsonl"])
        #expect(export.0 == 66)
        #expect(
            !FileManager.default.fileExists(atPath: absent), "checked, but made only when there is a trace to write")
        let run = simrun(["run", "counter-race", "--variant", "fixed", "--out", absent + "/deep/t.simtrace"])
        #expect(run.0 == 0 && FileManager.default.fileExists(atPath: absent + "/deep/t.simtrace"), "\(run.1)")
    }

    @Test func aSaveFailureMidCampaignKeepsTheFindingInATemporaryDirectory() throws {
        let directory = try makeTemporaryDirectory("mid-campaign")
        let out = directory.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // The first run replaces the output directory by a plain file: as root, chmod would not stop
        // the save, but a file where a directory should be does.
        let swapped = ValueBox(false)
        let sabotaging = Scenario(name: "sabotage", summary: "", variants: [.init("v", "")]) { simulation, _ in
            if !swapped.value {
                swapped.value = true
                try? FileManager.default.removeItem(atPath: out)
                _ = FileManager.default.createFile(atPath: out, contents: Data("in the way".utf8))
            }
            simulation.post(on: "main", "fail") { simulation.fail("always", "it fails") }
        }
        let (status, output) = simrun(
            ["fuzz", "sabotage", "--strategy", "fifo", "--seeds", "3", "--jobs", "1", "--no-show", "--out", out],
            scenarios: [sabotaging])
        #expect(swapped.value)
        #expect(status == 1, "bug found is never masked by a write failure: \(output)")
        let warning = try #require(
            output.split(separator: "\n").first { $0.contains("the trace was saved to") }.map(String.init), "\(output)")
        #expect(warning.contains(out), "the message says where it could not save: \(warning)")
        let saved = try #require(warning.split(separator: " ").first { $0.hasSuffix(".simtrace") }.map(String.init))
        defer { try? FileManager.default.removeItem(atPath: OutputPathTests.parent(of: saved)) }
        #expect(saved.contains("simrun-findings-"))
        #expect(FileManager.default.fileExists(atPath: saved), "the finding is kept at \(saved)")
        #expect(output.contains("trace:  \(saved)"), "the replay command points at the saved trace: \(output)")
        let replay = simrun(["replay", saved], scenarios: [sabotaging])
        #expect(replay.0 == 0, "\(replay.1)")
    }

    static func parent(of path: String) -> String {
        String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }
}
