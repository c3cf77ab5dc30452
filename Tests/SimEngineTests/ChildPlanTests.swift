import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// Every child process simrun starts receives the whole plan: each job kind that carries one goes to
/// a real child of the built `simrun`, which says which plan it rebuilt (its first reply, `running`)
/// before it does the job. A member added to `RunPlan.Descriptor` that a child drops (not encoded,
/// not decoded, not rebuilt into the `RunPlan` the child runs) comes back different here.
@Suite struct ChildPlanTests {
    @Test func everyChildRebuildsEveryMemberOfThePlan() throws {
        let directory = try makeTemporaryDirectory("child-plan")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("from.simtrace").path
        let source = RunPlan.probed(
            scenario: LostInputNavigation.scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
        _ = try Recorder.record(plan: source, seed: 3, strategy: source.makeStrategy(), strategyName: "random", to: trace)
        let full = try ChildJobTests.fullDescriptor(prefix: trace)
        // The fixture sets every member away from a bare plan's, so a dropped member shows.
        let bare = RunPlan.Descriptor(
            scenario: "", variant: "", strategy: StrategySpec(kind: .fifo), estimatedSteps: 0, noise: 0, carriers: .off)
        for (set, unset) in zip(Mirror(reflecting: full).children, Mirror(reflecting: bare).children) {
            #expect(
                String(describing: set.value) != String(describing: unset.value),
                "the fixture leaves \(set.label ?? "?") at its default: set it, so every child is shown to receive it")
        }
        // Every job kind that carries a plan (a replay's is its trace's), each doing as little as it
        // can once the plan is rebuilt (a worker out of range, a missing trace, an independent
        // strategy for an in-order campaign stop it at once).
        let path = directory.path
        let jobs: [ChildJob] = [
            .plan(full),
            .work(
                .init(
                    plan: full, worker: 5, workers: 3, goals: 2, space: SeedSpace(seeds: 0..<1), keepGoing: false,
                    milliseconds: nil, resume: nil)),
            .record(.init(plan: full, seed: 1, out: "\(path)/record.simtrace", schedule: .strategy, options: [])),
            .shrink(.init(plan: full, trace: "\(path)/missing.simtrace", out: "\(path)/shrunk.simtrace")),
            .inOrderCampaign(
                .init(
                    plan: full, seeds: 0..<1, milliseconds: nil, keepGoing: false, marker: "\(path)/marker",
                    findings: path)),
            .digests(.init(plan: full, seeds: .init(start: 0, stride: 1, count: 1))),
        ]
        let launcher = SimrunChildren.launcher
        for job in jobs {
            // `run` itself refuses a child that rebuilt another plan; the reply is checked here too.
            let run = try launcher.run(job)
            let rebuilt = run.replies.compactMap { reply -> RunPlan.Descriptor? in
                if case .running(let plan) = reply { return plan } else { return nil }
            }
            #expect(rebuilt == [full], "\(job.kind): \(run.replies) \(run.stderr)")
        }
    }
}
