import Foundation
import SimTestSupport
import Testing

/// A check-then-act split across two `Synchronization.Mutex.withLock` calls (issue #40): found by the
/// default fuzz with `--preempt`, where every use of the program's Mutex is a scheduling point (a
/// debug build); its fix is clean; the finding replays in another process.
@Suite(.serialized) struct MutexScenarioTests {
    @Test func aMutexCheckThenActIsFoundWithPreemptAndItsFixIsClean() throws {
        let directory = try makeTemporaryDirectory("mutex-coupon")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buggy = try SimrunProcess.run(
            ["fuzz", "mutex-coupon-redeem", "--preempt", "--no-show", "--out", directory.path])
        #expect(buggy.status == 1, "\(buggy.stdout)")
        #expect(buggy.stdout.contains("credited-once: the coupon was credited 2 times"), "\(buggy.stdout)")
        let trace = directory.appendingPathComponent("mutex-coupon-redeem-buggy-credited-once.simtrace").path
        let replay = try SimrunProcess.run(["replay", trace])
        #expect(replay.status == 0 && replay.stdout.contains(": identical"), "status \(replay.status): \(replay.stdout)\(replay.stderr)")
        let fixed = try SimrunProcess.run(
            ["fuzz", "mutex-coupon-redeem", "--variant", "fixed", "--preempt", "--seeds", "0..<2000", "-q"])
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }

    @Test func aMutexUseIsAPointOnlyUnderPreempt() throws {
        let run = try SimrunProcess.run(["run", "carrier-probe", "--variant", "synchronization-mutex", "--preempt"])
        #expect(run.status == 0, "\(run.stdout)")
        let plain = try SimrunProcess.run(["fuzz", "mutex-coupon-redeem", "--seeds", "0..<50", "-q"])
        #expect(!plain.stdout.contains("credited-once"), "without carriers each withLock is one job's stretch: \(plain.stdout)")
    }
}
