import Foundation
import SimTestSupport
import Testing

/// `--preempt` campaigns over the concurrency runtime's locks and libraries' lock orders (issue #41):
/// a deadlock names both locks, who holds each and where it was taken; two lock classes taken in both
/// orders are reported even when every run passed, and the search aimed at the inverted schedule
/// turns the evidence into a deadlock.
@Suite(.serialized) struct LockOrderCampaignTests {
    @Test func aStatusLockInversionIsADeadlockNamingBothLocksAndTheirHolders() throws {
        let directory = try makeTemporaryDirectory("status-lock")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            ["fuzz", "subject-cancel-deadlock", "--variant", "buggy", "--preempt", "--no-show", "--out", "out"],
            in: directory)
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        let failure = fuzz.stdout.split(separator: "\n").first { $0.hasPrefix("FAIL at seed") }.map(String.init) ?? ""
        #expect(failure.contains("deadlock: every lane blocked"), "\(fuzz.stdout)")
        // The status lock of the cancelled subscriber, held by the task cancelling it, taken at the cancel.
        #expect(failure.contains("waits for the status lock of task>SubjectCancelDeadlock.scenario{1}{1}{3}.1 (held by task>SubjectCancelDeadlock.scenario{1}{1}{5}.1 cancelling it, taken at status-lock SubjectCancelDeadlock.scenario{1}{1}{5})"), "\(failure)")
        // The subject's lock, held by the sender, taken in send, wanted by the cancellation handler.
        #expect(failure.contains("waits for lock L"), "\(failure)")
        #expect(failure.contains("taken at lock ValueSubject.send(_:)), in ValueSubject.unsubscribe(_:)"), "\(failure)")
        // The finding replays identically on the build that found it, and the fix passes its schedule.
        let trace = "out/subject-cancel-deadlock-buggy-deadlock.simtrace"
        let replay = try SimrunProcess.run(["replay", trace], in: directory)
        #expect(replay.status == 0 && replay.stdout.contains(": identical"), "\(replay.stdout)")
        let fixed = try SimrunProcess.run(["replay", trace, "--variant", "fixed"], in: directory)
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }

    @Test func theFirstFixReordersDeliveriesAndTheTurnstileDoesNot() throws {
        let reordering = try SimrunProcess.run(
            ["fuzz", "subject-cancel-deadlock", "--variant", "buggy-reorder", "--preempt", "--no-show", "--no-shrink"])
        #expect(reordering.status == 1, "\(reordering.stdout)")
        #expect(reordering.stdout.contains("delivered-in-order: the subscriber received 1 after 2"), "\(reordering.stdout)")
        let fixed = try SimrunProcess.run(
            ["fuzz", "subject-cancel-deadlock", "--variant", "fixed", "--preempt", "--seeds", "0..<1500", "-q"])
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }

    @Test func bothOrdersInPassingRunsAreAPotentialDeadlockAndTheAimedSearchDeadlocks() throws {
        let directory = try makeTemporaryDirectory("lock-order")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Seeds 1..<4 all pass, and each takes both orders (two tasks, one each way).
        let fuzz = try SimrunProcess.run(
            [
                "fuzz", "shared-dependency-deadlock", "--variant", "buggy", "--preempt", "--seeds", "1..<4", "--no-show",
                "--out", "out", "--json",
            ], in: directory)
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(fuzz.stdout.utf8)) as? [String: Any], "\(fuzz.stdout)")
        #expect((document["failures"] as? Int) == 0, "every run of the campaign passed")
        let potential = try #require((document["potentialDeadlocks"] as? [[String: Any]])?.first, "\(fuzz.stdout)")
        let first = try #require(potential["first"] as? [String: Any])
        let second = try #require(potential["second"] as? [String: Any])
        #expect(first["held"] as? String == "lock made in DependencyCache.init()")
        #expect(first["taken"] as? String == "lock made in PersistentReferences.init(buildsUnderLock:)")
        #expect(first["takenAt"] as? String == "lock PersistentReferences.reference(_:make:)")
        #expect(second["held"] as? String == "lock made in PersistentReferences.init(buildsUnderLock:)")
        #expect(second["takenAt"] as? String == "lock DependencyCache.value(_:live:)")
        #expect((potential["traces"] as? [String])?.count == 2)
        #expect(potential["aimedDeadlockSeed"] is Int, "the aimed search found the deadlock: \(potential)")
        for trace in (potential["traces"] as? [String]) ?? [] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(trace).path), "\(trace)")
        }
        // PR #153's fix takes the references' lock alone: one order only, no potential deadlock.
        let fixed = try SimrunProcess.run(
            ["fuzz", "shared-dependency-deadlock", "--variant", "fixed", "--preempt", "--seeds", "0..<300", "--json"],
            in: directory)
        #expect(fixed.status == 0, "\(fixed.stdout)")
        #expect(fixed.stdout.contains("\"potentialDeadlocks\":[]"), "\(fixed.stdout)")
    }

    @Test func aPreemptRunAndItsDeterminismCheckAgreeOnEverySeed() throws {
        for seed in 0..<6 {
            let run = try SimrunProcess.run(
                ["run", "subject-cancel-deadlock", "--variant", "buggy", "--preempt", "--seed", "\(seed)", "--json"])
            let check = try SimrunProcess.run(
                [
                    "run", "subject-cancel-deadlock", "--variant", "buggy", "--preempt", "--seed", "\(seed)",
                    "--check-determinism", "--json",
                ])
            let ran = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let checked = try #require(
                try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any], "\(check.stdout)")
            #expect(checked["verdict"] as? String == "deterministic", "seed \(seed): \(check.stdout)")
            #expect((checked["digests"] as? [String])?.first == ran["digest"] as? String, "seed \(seed)")
        }
    }
}
