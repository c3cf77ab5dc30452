import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

/// Tables and timelines print task identities short (#44, F7) — without the scenario body's `task>`
/// and without argument labels — and `--full-names` prints them whole; the trace keeps them whole.
/// A shrink that trades fifo picks for fewer departures reads as the shrink it is (F8).
@Suite struct TaskNamePresentationTests {
    @Test(arguments: [
        ("task>SearchViewModel.type(_:){1}.1", "SearchViewModel.type{1}.1"),
        ("main/task>SearchViewModel.type(_:){1}.1#1", "main/SearchViewModel.type{1}.1#1"),
        ("task>A.f(){1}.1>B.g(id:from:){2}.3/actor#2", "A.f{1}.1>B.g{2}.3/actor#2"),
        (
            "decision 6 (task>S.type(_:){1}.2/task.sleep#1 before task>S.type(_:){1}.1/task.sleep#1)",
            "decision 6 (S.type{1}.2/task.sleep#1 before S.type{1}.1/task.sleep#1)"
        ),
        ("task>Loader.start(){1}+4c.1", "Loader.start{1}+4c.1"),
        ("actor.call: task>M.f(_:){1}.1 calls actor SearchService.search(_:)", "actor.call: M.f{1}.1 calls actor SearchService.search(_:)"),
        ("task", "task"), ("task.sleep task", "task.sleep task"), ("writer#2", "writer#2"), ("user.tap/action.tap#1", "user.tap/action.tap#1"),
    ])
    func aTaskIdentityIsShortenedForTables(full: String, short: String) {
        #expect(ShortTaskNames.shorten(full) == short)
    }

    /// A trace of `search-debounce-task` (a `Task {}` per keystroke): `show` and `explain` print the
    /// short names, `--full-names` the identities as recorded, and the trace replays unchanged.
    @Test func showAndExplainPrintShortNamesAndFullOnesOnRequest() throws {
        let directory = try makeTemporaryDirectory("task-names")
        let trace = directory.appendingPathComponent("t.simtrace").path
        var seed: UInt64?
        for candidate in UInt64(0)..<40 where seed == nil {
            if simrun(["run", "search-debounce-task", "--seed", "\(candidate)", "--out", trace]).0 == 1 { seed = candidate }
        }
        try #require(seed != nil, "search-debounce-task fails within 40 seeds")
        let full = "task>SearchViewModel.type(_:){1}."
        let short = "SearchViewModel.type{1}."

        let (status, shown) = simrun(["show", trace])
        #expect(status == 0)
        #expect(!shown.contains(full) && shown.contains(short), "\(shown)")
        let (_, whole) = simrun(["show", trace, "--full-names"])
        #expect(whole.contains(full), "\(whole)")

        let (explained, table) = simrun(["explain", trace, "--runs", "4"])
        #expect(explained == 0, "\(table)")
        #expect(!table.contains(full) && table.contains(short), "\(table)")
        let (_, fullTable) = simrun(["explain", trace, "--runs", "4", "--full-names"])
        #expect(fullTable.contains(full), "\(fullTable)")

        let (replayed, replay) = simrun(["replay", trace])
        #expect(replayed == 0, "the recorded identities are untouched: \(replay)")
    }

    @Test func aShrinkThatAddsFifoPicksSaysWhatItReduced() {
        let report = ShrinkReport(
            runs: 2, before: ShrinkCounts(decisions: 7, nonFifo: 6, events: 40, steps: 12),
            after: ShrinkCounts(decisions: 9, nonFifo: 0, events: 38, steps: 12), verdict: .fail(oracle: "o", message: "m"))
        #expect(report.line.hasPrefix("shrunk in 2 runs: non-fifo decisions 6 → 0"), "\(report.line)")
        #expect(!report.line.contains("decisions 7 → 9"), "no total that reads as growth: \(report.line)")
        #expect(report.line.contains("fifo decisions 1 → 9"), "\(report.line)")
    }
}
