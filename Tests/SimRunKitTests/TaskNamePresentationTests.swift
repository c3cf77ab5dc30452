import Foundation
import SimTestSupport
import Testing

/// `show` and `explain` print task identities short (#44, F7) — without the scenario body's `task>`
/// and without argument labels — and `--full-names` prints them whole; the trace keeps them whole.
/// The shortening itself is tested in SimTraceTests' `ShortTaskNamesTests`.
@Suite struct TaskNamePresentationTests {
    /// A trace of `search-debounce-task` (a `Task {}` per keystroke): `show` and `explain` print the
    /// short names, `--full-names` the identities as recorded, and the trace replays unchanged.
    @Test func showAndExplainPrintShortNamesAndFullOnesOnRequest() throws {
        let directory = try makeTemporaryDirectory("task-names")
        defer { try? FileManager.default.removeItem(at: directory) }
        let found = try SimrunProcess.run([
            "fuzz", "search-debounce-task", "--seeds", "0..<40", "--no-shrink", "--no-show", "--out", directory.path,
        ])
        #expect(found.status == 1, "search-debounce-task fails within 40 seeds: \(found.stdout)\(found.stderr)")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".simtrace") })
        let trace = directory.appendingPathComponent(name).path
        let full = "task>SearchViewModel.type(_:){1}."
        let short = "SearchViewModel.type{1}."

        let shown = try SimrunProcess.run(["show", trace])
        #expect(shown.status == 0)
        #expect(!shown.stdout.contains(full) && shown.stdout.contains(short), "\(shown.stdout)")
        let whole = try SimrunProcess.run(["show", trace, "--full-names"])
        #expect(whole.stdout.contains(full), "\(whole.stdout)")

        let table = try SimrunProcess.run(["explain", trace, "--runs", "4"])
        #expect(table.status == 0, "\(table.stdout)\(table.stderr)")
        #expect(!table.stdout.contains(full) && table.stdout.contains(short), "\(table.stdout)")
        let fullTable = try SimrunProcess.run(["explain", trace, "--runs", "4", "--full-names"])
        #expect(fullTable.stdout.contains(full), "\(fullTable.stdout)")

        let replay = try SimrunProcess.run(["replay", trace])
        #expect(replay.status == 0, "the recorded identities are untouched: \(replay.stdout)\(replay.stderr)")
    }
}
