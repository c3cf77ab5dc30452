import Foundation
import SimCapture
import SimRunKit
import SimTestSupport
import Testing

/// The user-scenario example (SimCore's article "Scenarios and oracles"): a separate executable over its own scenario, through the
/// same command tree as `simrun`.
@Suite struct UserScenarioExampleTests {
    private var example: URL {
        SimrunProcess.executable.deletingLastPathComponent().appendingPathComponent("simrun-example")
    }

    @Test func theExampleListsFuzzesAndReplaysItsOwnScenario() throws {
        let directory = try makeTemporaryDirectory("example")
        let list = try SimrunProcess.run(executable: example, ["list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("checkout-promo-code"))
        #expect(!list.stdout.contains("lost-input-navigation"), "only the user's scenarios")

        let out = directory.appendingPathComponent("failures").path
        let fuzz = try SimrunProcess.run(
            executable: example, ["fuzz", "checkout-promo-code", "--seeds", "0..<200", "--out", out])
        #expect(fuzz.status == 1, "fuzz finds the bug: \(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("order-uses-typed-promo"))
        let trace = out + "/checkout-promo-code-buggy-order-uses-typed-promo.simtrace"

        let same = try SimrunProcess.run(executable: example, ["replay", trace])
        #expect(same.status == 0 && same.stdout.contains("identical"))
        let fixed = try SimrunProcess.run(executable: example, ["replay", trace, "--variant", "fixed"])
        #expect(fixed.status == 0, "the fixed variant passes the failing schedule: \(fixed.stdout)")
        let fixedFuzz = try SimrunProcess.run(
            executable: example,
            ["fuzz", "checkout-promo-code", "--variant", "fixed", "--seeds", "0..<200", "--out", out])
        #expect(fixedFuzz.status == 0)

        let explain = try SimrunProcess.run(executable: example, ["explain", trace, "--runs", "30"])
        #expect(explain.status == 0)
        #expect(explain.stdout.contains("action.tap#1 on lane user.tap ahead of input.blur#1"))
    }

    @Test func aUsersOwnExecutableExploresItsMainActorTasks() throws {
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
        #expect(fixed.status == SimRunKit.ExitStatus.ok, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stderr.contains("this code orders them, the race is gone"), "\(fixed.stderr)")
        #expect(fixed.stdout.contains("race removed: the fix removes the recorded race"), "\(fixed.stdout)")
        #expect(fixed.stdout.contains("instead, pct seeds 0..<500 on fixed: 0 failures"), "\(fixed.stdout)")
        let fixedFuzz = try SimrunProcess.run(
            executable: example, ["fuzz", "autosave-draft", "--variant", "fixed", "--seeds", "0..<500", "--out", out])
        #expect(fixedFuzz.status == 0)
    }

    /// The clock promise in a user's executable: `Date()`, `ContinuousClock.now` and
    /// `DispatchTime.now()` read in `@MainActor` and `Task {}` code after 7, 16 and 333 ms sleeps are
    /// exactly the run's virtual time (the scenario's oracles compare each reading), for every seed.
    @Test(.enabled(if: virtualClocksExpected, "the clocks stay real on this platform"))
    func aUsersClockReadingsAreVirtualAndExact() throws {
        let directory = try makeTemporaryDirectory("example-clocks")
        let out = directory.appendingPathComponent("failures").path
        let fuzz = try SimrunProcess.run(
            executable: example, ["fuzz", "activity-stamps", "--strategy", "random", "--seeds", "0..<40", "--out", out])
        #expect(fuzz.status == 0, "\(fuzz.stdout)\(fuzz.stderr)")
        let check = try SimrunProcess.run(
            executable: example, ["run", "activity-stamps", "--seed", "5", "--check-determinism"], in: directory)
        #expect(check.stdout.contains(": deterministic — two processes"), "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("verdict pass"), "\(check.stdout)")
    }
}

/// Linux must interpose the clocks (a broken link fails, never skips); elsewhere only if it says so.
#if os(Linux)
    let virtualClocksExpected = true
#else
    let virtualClocksExpected = VirtualClocks.areVirtual
#endif
