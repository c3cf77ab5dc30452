import Foundation
import SimCore
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// When a trace's schedule cannot be read back by identity on its own variant (the code changed
/// under the same name), the problem names the first decision that could not be followed: the
/// place a user looks first, since every later one may follow from it.
@Suite struct IdentityScheduleProblemTests {
    /// Three jobs on three lanes; `renamed` posts the same work under other labels.
    static func scenario(renamed: Bool) -> Scenario {
        Scenario(name: "three-jobs", summary: "", variants: [.init("v", "")]) { sim, _ in
            for lane in ["a", "b", "c"] {
                sim.post(on: lane, renamed ? "\(lane).moved" : "\(lane).run") {}
            }
        }
    }

    @Test func theProblemNamesTheFirstDecisionThatCouldNotBeFollowed() throws {
        let directory = try makeTemporaryDirectory("identity-problem")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.simtrace").path
        let recorded = RunPlan.probed(
            scenario: Self.scenario(renamed: false), variant: "v", strategy: StrategySpec(kind: .random))
        // c first, then b: two decisions, both departures from fifo.
        let run = try Recorder.record(
            plan: recorded, seed: 0, strategy: GuidedStrategy(choices: [2, 1]), strategyName: "guided", to: path)
        #expect(run.tape.count == 2)
        let changed = RunPlan.probed(
            scenario: Self.scenario(renamed: true), variant: "v", strategy: StrategySpec(kind: .random))
        let problem = try #require(
            TraceReplayer(input: try TraceInput(path: path), plan: changed).identitySchedule().problem)
        #expect(problem.contains("decision 1: job c/c.run#1 is not ready"), "\(problem)")
        #expect(!problem.contains("decision 2"), "\(problem)")
    }
}
