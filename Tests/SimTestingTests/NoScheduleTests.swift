import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTesting
import Testing

/// Negative space: an `explore` or `simulate` that ran no schedule never passes. An empty seed range
/// is the easy way to get there; each call must record exactly one issue that says nothing ran, and
/// report zero schedules, never a quiet pass.
@Suite struct NoScheduleTests {
    private let counterRace = BuiltinScenarios.all.first { $0.name == "counter-race" }!

    @Test(arguments: ["pct", "random", "dfs", "fifo"])
    func exploreOverNoSeedsIsAnIssueNotAPass(_ strategy: String) throws {
        let directory = try makeTemporaryDirectory("no-schedule").path
        var exploration: Exploration?
        let texts = ValueBox<[String]>([])
        withKnownIssue {
            exploration = explore(
                counterRace, variant: "fixed", strategy: strategy, seeds: 5..<5, failureDirectory: directory)
        } matching: { issue in
            texts.value.append(issue.comments.map(\.rawValue).joined())
            return true
        }
        #expect(exploration?.schedules == 0)
        #expect(exploration?.failure == nil)
        #expect(texts.value.count == 1, "one issue, not \(texts.value)")
        #expect(texts.value.first?.contains("ran no schedule") == true, "\(texts.value)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "nothing saved")
    }

    @Test func simulateOverNoSeedsIsAnIssueNotAPass() async throws {
        let directory = try makeTemporaryDirectory("no-schedule-simulate").path
        let texts = ValueBox<[String]>([])
        var exploration: Exploration?
        await withKnownIssue {
            exploration = await simulate(seeds: 3..<3, failureDirectory: directory) { sim in
                sim.post(on: "a", "step") {}
            }
        } matching: { issue in
            texts.value.append(issue.comments.map(\.rawValue).joined())
            return true
        }
        // (The body may still run once to plan the campaign, pct's step count: that is no schedule.)
        #expect(exploration?.schedules == 0)
        #expect(texts.value.count == 1 && texts.value[0].contains("ran no schedule"), "\(texts.value)")
    }

    @Test func oneSeedIsOneScheduleAndPasses() throws {
        // The other side of the line: one seed is a schedule, and a fixed variant passes it quietly.
        let directory = try makeTemporaryDirectory("one-schedule").path
        let exploration = explore(
            counterRace, variant: "fixed", strategy: "pct", seeds: 0..<1, failureDirectory: directory)
        #expect(exploration.schedules == 1)
        #expect(exploration.failure == nil)
    }
}
