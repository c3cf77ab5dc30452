import Foundation
import SimCapture
import SimCore
import SimTestSupport
import Testing

/// The GCD scenarios through `simrun` (issue #31): each bug found by the default `simrun fuzz <name>`,
/// each fix clean (20,000 seeds: `tools/gcd-fixed-campaign.sh`; a few hundred here), runs identical
/// across processes (`--check-determinism`), and a saved trace replays identical.
@Suite(.enabled(if: DispatchCapturing.isActive, "GCD runs under the scheduler on Linux only for now"))
struct GCDScenarioTests {
    static let scenarios = ["gcd-image-loader", "gcd-debounce", "gcd-semaphore-deadlock"]

    @Test(arguments: scenarios)
    func theDefaultFuzzFindsTheBugAndTheFixIsClean(_ name: String) throws {
        let directory = try makeTemporaryDirectory("gcd")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("failures").path
        let buggy = try SimrunProcess.run(["fuzz", name, "--no-show", "--out", out])
        #expect(buggy.status == 1, "\(name) buggy not found: \(buggy.stdout)\(buggy.stderr)")
        #expect(buggy.stdout.contains("FAIL at seed"), "\(buggy.stdout)")
        let trace = try #require(
            try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasSuffix(".simtrace") })
        let replay = try SimrunProcess.run(["replay", "\(out)/\(trace)"])
        #expect(replay.status == 0, "the trace replays identical: \(replay.stdout)")
        #expect(replay.stdout.contains("identical") && replay.stdout.contains("verdict FAIL"), "\(replay.stdout)")

        let fixed = try SimrunProcess.run([
            "fuzz", name, "--variant", "fixed", "--seeds", "0..<500", "--check-determinism", "--out", out,
        ])
        #expect(fixed.status == 0, "\(name) fixed failed: \(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("0 failures"), "\(fixed.stdout)")
        #expect(fixed.stdout.contains("0 differences"), "\(fixed.stdout)")
    }

    @Test func aBuggyRunIsIdenticalInTwoMoreProcesses() throws {
        let directory = try makeTemporaryDirectory("gcd-determinism")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try SimrunProcess.run([
            "fuzz", "gcd-debounce", "--seeds", "0..<40", "--check-determinism", "--no-show", "--out", directory.path,
        ])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("checked in two more processes"), "\(run.stdout)")
        #expect(run.stdout.contains(", 0 differences"), "\(run.stdout)")
    }

    @Test func theDeadlockNamesWhoWaitsOnWhat() throws {
        let directory = try makeTemporaryDirectory("gcd-deadlock")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try SimrunProcess.run(
            ["run", "gcd-semaphore-deadlock", "--seed", "0", "--strategy", "fifo"], in: directory)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.contains(
                "deadlock: every lane blocked: main waits for DispatchSemaphore#1 (in dispatch.async, in "
                    + "GCDSemaphoreDeadlock.ThumbnailStore.thumbnail(for:)); suspended tasks: none (the run started no Swift task)"),
            "\(run.stdout)")
    }
}
