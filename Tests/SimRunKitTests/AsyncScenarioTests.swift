import Foundation
import SimEngine
import SimScenarios
import SimTestSupport
import Testing

/// Plain Swift concurrency through executables that own `main` (the executor-factory route): `simrun`
/// itself, as a test's child process, and a user's own executable (`simrun-example`).
@Suite struct AsyncScenarioTests {
    static let scenarios = ["actor-reentrancy-cache", "search-debounce-task", "double-tap-submit"]

    @Test(arguments: CaptureProbe.constructs.map(\.variant))
    func theFactoryRouteCapturesWhatTheMatrixSays(_ variant: String) throws {
        let expected = try #require(CaptureProbe.constructs.first { $0.variant == variant }).factory
        let run = try SimrunProcess.run(["run", "capture-probe", "--variant", variant, "--seed", "0"])
        if expected {
            #expect(run.status == 0, "\(variant): \(run.stdout)\(run.stderr)")
        } else {
            #expect(run.status == 1, "\(variant) must fail, not pass: \(run.stdout)")
            #expect(run.stdout.contains("stays-in-simulation") || run.stdout.contains("captured:"), "\(run.stdout)")
        }
    }

    @Test func aRealDispatchQueueIsReportedAsAnEscape() throws {
        let run = try SimrunProcess.run(["run", "capture-probe", "--variant", "dispatch-global", "--seed", "3"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("stays-in-simulation: work escaped the simulation"), "\(run.stdout)")
    }

    /// The promises, with `@MainActor` + `Task {}` code run by a test through a child process.
    @Test(arguments: scenarios)
    func buggyIsFoundFixedIsCleanAndRunsAreDeterministic(_ name: String) throws {
        let directory = try makeTemporaryDirectory("async")
        let out = directory.appendingPathComponent("failures").path
        let buggy = try SimrunProcess.run(["fuzz", name, "--seeds", "0..<1000", "--no-show", "--out", out])
        #expect(buggy.status == 1, "\(name) buggy not found: \(buggy.stdout)\(buggy.stderr)")
        #expect(buggy.stdout.contains("FAIL at seed"))
        let fixed = try SimrunProcess.run(["fuzz", name, "--variant", "fixed", "--seeds", "0..<2000", "--out", out])
        #expect(fixed.status == 0, "\(name) fixed failed: \(fixed.stdout)")
        for variant in ["buggy", "fixed"] {
            let check = try SimrunProcess.run(
                ["run", name, "--variant", variant, "--seed", "11", "--check-determinism"], in: directory)
            #expect(check.stdout.contains(": deterministic — two processes"), "\(name)/\(variant): \(check.stdout)")
        }
    }

    @Test func aUsersOwnExecutableExploresItsMainActorTasks() throws {
        let example = SimrunProcess.executable.deletingLastPathComponent().appendingPathComponent("simrun-example")
        let directory = try makeTemporaryDirectory("example-async")
        let list = try SimrunProcess.run(executable: example, ["list"])
        #expect(list.stdout.contains("autosave-draft"))
        let out = directory.appendingPathComponent("failures").path
        let fuzz = try SimrunProcess.run(
            executable: example, ["fuzz", "autosave-draft", "--seeds", "0..<500", "--no-show", "--out", out])
        #expect(fuzz.status == 1, "the example's bug is found: \(fuzz.stdout)\(fuzz.stderr)")
        let trace = out + "/autosave-draft-buggy-server-has-latest-draft.simtrace"
        let same = try SimrunProcess.run(executable: example, ["replay", trace])
        #expect(same.status == 0 && same.stdout.contains("identical"), "\(same.stdout)\(same.stderr)")
        let show = try SimrunProcess.run(executable: example, ["show", trace])
        #expect(
            show.stdout.split(separator: "\n").contains { $0.contains(" main ") && $0.contains("▶ task") },
            "the @MainActor jobs ran on the main lane: \(show.stdout)")
        // The fix makes each save await the previous one: the recorded race between the two saves
        // cannot happen there, so the replay cannot test the fix; a pct campaign on it decides, and
        // the verdict says both (the fuzz of the fixed variant below tests it too).
        let fixed = try SimrunProcess.run(executable: example, ["replay", trace, "--variant", "fixed"])
        #expect(fixed.status == ExitStatus.ok, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stderr.contains("this code orders them, the race is gone"), "\(fixed.stderr)")
        #expect(fixed.stdout.contains("race removed: the fix removes the recorded race"), "\(fixed.stdout)")
        #expect(fixed.stdout.contains("instead, pct seeds 0..<500 on fixed: 0 failures"), "\(fixed.stdout)")
        let fixedFuzz = try SimrunProcess.run(
            executable: example, ["fuzz", "autosave-draft", "--variant", "fixed", "--seeds", "0..<500", "--out", out])
        #expect(fixedFuzz.status == 0)
    }
}
