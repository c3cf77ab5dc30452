import Foundation
import SimTestSupport
import Testing

/// The object checks from the command line: listed, found by `fuzz` with the table of calls printed
/// (shrunk: the `verdict:` line is the saved trace's), clean on the fixed variant, and the saved trace
/// replays, shows and explains like any other.
@Suite struct ObjectCheckCommandTests {
    static let checks = [
        "cache-check", "counter-check", "token-refresher-check", "bounded-buffer-check", "semaphore-check",
        "ticket-dispenser-check", "main-actor-draft-check",
    ]

    @Test func listShowsEveryCheck() throws {
        let list = try SimrunProcess.run(["list"])
        #expect(list.status == 0)
        for name in Self.checks { #expect(list.stdout.contains("\(name) "), "\(name) missing from list") }
    }

    @Test func fuzzFindsTheCounterBugAndPrintsTheShrunkTable() throws {
        let out = try makeTemporaryDirectory("object-check-cli").appendingPathComponent("failures").path
        let buggy = try SimrunProcess.run(["fuzz", "counter-check", "--seeds", "0..<500", "--out", out])
        #expect(buggy.status == 1, "\(buggy.stdout)\(buggy.stderr)")
        let verdict = buggy.stdout.components(separatedBy: "verdict: FAIL").last ?? ""
        #expect(verdict.contains("linearizable: not linearizable"), "\(buggy.stdout)")
        #expect(verdict.contains("task 1   increment() → 1"), "\(buggy.stdout)")
        #expect(verdict.contains("task 2   increment() → 1 (alone: 2)"), "\(buggy.stdout)")
        // The interleaving, as a trace: each call's invocation and return are events.
        #expect(buggy.stdout.contains("call.invoke t2.1  call=increment()"), "\(buggy.stdout)")
        let trace = out + "/counter-check-buggy-linearizable.simtrace"
        let replay = try SimrunProcess.run(["replay", trace])
        #expect(replay.status == 0 && replay.stdout.contains("identical"), "\(replay.stdout)")
        #expect(replay.stdout.contains("increment() → 1 (alone: 2)"), "\(replay.stdout)")
        let fixed = try SimrunProcess.run(["replay", trace, "--variant", "fixed"])
        #expect(fixed.stdout.contains("replayed on fixed: pass"), "\(fixed.stdout)")
        // explain names the decision that made the bug certain: the second task starting its call.
        let explain = try SimrunProcess.run(["explain", trace])
        #expect(explain.stdout.contains("The bug became certain at decision"), "\(explain.stdout)")
        #expect(explain.stdout.contains("call.invoke t2.1"), "\(explain.stdout)")
    }

    /// A seed names a scenario and a schedule: two processes record the same run, on every check.
    @Test(arguments: checks) func aRunIsTheSameInTwoProcesses(_ name: String) throws {
        let run = try SimrunProcess.run(["run", name, "--seed", "11", "--check-determinism"])
        #expect(run.stdout.contains("deterministic — two processes recorded the same"), "\(run.stdout)")
    }

    /// A `@MainActor` class with sleeps, on the executor-factory route that `simrun` owns.
    @Test func aMainActorObjectIsCheckedThroughSimrun() throws {
        let out = try makeTemporaryDirectory("object-check-cli").appendingPathComponent("failures").path
        let buggy = try SimrunProcess.run([
            "fuzz", "main-actor-draft-check", "--seeds", "0..<300", "--no-show", "--out", out,
        ])
        #expect(buggy.status == 1, "\(buggy.stdout)\(buggy.stderr)")
        let shrunk = buggy.stdout.components(separatedBy: "shrunk to:").last ?? ""
        #expect(shrunk.contains("task 2   save(a) → 1 (alone: 2)"), "\(buggy.stdout)")
        let fixed = try SimrunProcess.run([
            "fuzz", "main-actor-draft-check", "--variant", "fixed", "--seeds", "0..<500", "--out", out,
        ])
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }

    @Test func theAtomicVariantNamesTheInterleavingAndTheLinearizableOnePasses() throws {
        let out = try makeTemporaryDirectory("object-check-cli").appendingPathComponent("failures").path
        let atomic = try SimrunProcess.run([
            "fuzz", "ticket-dispenser-check", "--variant", "atomic", "--seeds", "0..<500", "--no-show", "--out", out,
        ])
        #expect(atomic.status == 1)
        #expect(atomic.stdout.contains("was interleaved at its await by call"), "\(atomic.stdout)")
        let linearizable = try SimrunProcess.run([
            "fuzz", "ticket-dispenser-check", "--variant", "linearizable", "--seeds", "0..<500", "--out", out,
        ])
        #expect(linearizable.status == 0, "\(linearizable.stdout)")
    }
}
