import Foundation
import SimTestSupport
import Testing

/// The constructs that used to pass silently (issue #40), as built-in scenarios run by `simrun`: a
/// Foundation Timer on the main run loop and a Thread hopping back to main are found by the default
/// fuzz and their fixes are clean; a Thread on the one-thread path fails the run instead of passing.
@Suite(.serialized) struct ThreadAndTimerScenarioTests {
    @Test func aRunLoopTimerRaceIsFoundAndItsFixIsClean() throws {
        let buggy = try SimrunProcess.run(["fuzz", "timer-draft-resurrection", "--no-show", "--no-shrink"])
        #expect(buggy.status == 1, "\(buggy.stdout)")
        #expect(buggy.stdout.contains("sent-message-not-a-draft: the drafts hold \"Hello\", which was sent"), "\(buggy.stdout)")
        let fixed = try SimrunProcess.run(
            ["fuzz", "timer-draft-resurrection", "--variant", "fixed", "--seeds", "0..<2000", "-q"])
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }

    @Test func aThreadRaceIsFoundOnCarriersAndItsFixIsClean() throws {
        let buggy = try SimrunProcess.run(["fuzz", "thread-avatar-decode", "--preempt", "--no-show", "--no-shrink"])
        #expect(buggy.status == 1, "\(buggy.stdout)")
        #expect(buggy.stdout.contains("avatar-matches-profile: the screen shows bob with avatar(alice)"), "\(buggy.stdout)")
        let fixed = try SimrunProcess.run(
            ["fuzz", "thread-avatar-decode", "--variant", "fixed", "--preempt", "--seeds", "0..<2000", "-q"])
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }

    @Test func aThreadOnTheOneThreadPathIsAFindingNotAPass() throws {
        let run = try SimrunProcess.run(["run", "thread-avatar-decode", "--variant", "fixed", "--seed", "0"])
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stdout.contains("stays-in-simulation: work escaped the simulation: a thread started in ProfileScreen.open(_:) runs outside the one-thread scheduler"), "\(run.stdout)")
    }
}
