import Foundation
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// A passing replay on another variant prints its result on stdout and its notes on stderr,
/// numbering decisions from 1 as `show` does.
@Suite struct ReplayNoteTests {
    @Test func notesGoToStderrNumberedAsShowNumbersDecisions() throws {
        let directory = try makeTemporaryDirectory("replay-notes")
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        let console = Console(capturing: true)
        let status = SimRun.run(
            arguments: ["replay", trace, "--variant", "fixed"], scenarios: BuiltinScenarios.all, console: console)
        #expect(status == 0)
        let stdout = console.capturedLines.filter { !$0.hasPrefix("err: ") }
        // Followed by identity, the fixed variant meets both recorded races: the summary says so and
        // there is no note (a note's numbering is checked in IdentityReplayTests).
        #expect(
            stdout == [
                "lost-input-navigation/fixed seed \(LostInputFixture.seed): schedule of buggy replayed on fixed: pass",
                "followed 2 of 2 decisions (all 2 non-fifo); 1 job not in the trace ran in fifo order",
            ], "\(console.capturedLines)")
        #expect(console.capturedLines.filter { $0.hasPrefix("err: note: ") }.isEmpty)
    }
}
