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
        #expect(
            stdout == [
                "lost-input-navigation/fixed seed \(LostInputFixture.seed): schedule of buggy replayed on fixed: pass"
            ])
        let notes = console.capturedLines.filter { $0.hasPrefix("err: note: ") }
        #expect(!notes.isEmpty, "the fixed variant cannot follow every decision: \(console.capturedLines)")
        // view.update#2 is decision 2 in `show` (decision 1 is the tap).
        let shown = simrun(["show", trace]).1
        #expect(shown.contains("decision 2: pick main/view.update#2"))
        #expect(notes.contains { $0.contains("decision 2: job main/view.update#2") }, "\(notes)")
    }
}
