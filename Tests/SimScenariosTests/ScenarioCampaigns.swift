import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// The built-in scenarios under the engine, as `simrun fuzz <name>` plans them (the fifo run sizes
/// the plan here), with findings asserted as typed values. Runs that may trap go to child processes
/// of the built `simrun`, whose catalog is `BuiltinScenarios.all`, as the command's own launcher does.
enum ScenarioCampaigns {
    /// The built-in scenario named `name` (fixtures and SCTBench's programs aside, all of them).
    static func scenario(_ name: String) throws -> Scenario {
        try #require(BuiltinScenarios.all.first { $0.name == name }, "no built-in scenario \(name)")
    }

    /// The plan of `simrun fuzz name --variant variant [--strategy …] [--preempt]`: the campaign's
    /// default strategy unless given, no noise lanes.
    static func plan(
        _ name: String, variant: String = "buggy", strategy: StrategySpec = .campaignDefault, preempt: Bool = false
    ) throws -> RunPlan {
        RunPlan.probed(
            scenario: try scenario(name), variant: variant, strategy: strategy, noise: 0,
            carriers: preempt ? .preemptLocks : .off)
    }

    /// The same plan made in a child of `simrun` (its fifo run there): for runs on carriers or that
    /// start real threads, which are kept out of this process, where other tests run alongside.
    static func planInChild(
        _ name: String, variant: String = "buggy", strategy: StrategySpec = .campaignDefault, preempt: Bool = false
    ) throws -> RunPlan {
        let descriptor = RunPlan.Descriptor(
            scenario: name, variant: variant, strategy: strategy, estimatedSteps: 1, noise: 0,
            carriers: preempt ? .preemptLocks : .off)
        switch try children.plan(descriptor, in: ScenarioCatalog(BuiltinScenarios.all)) {
        case .planned(let plan): return plan
        case .trapped(let message):
            Issue.record("\(name)/\(variant): the fifo run trapped: \(message)")
            throw SimEngineError(.failed, message)
        }
    }

    /// One run of `plan` at `seed`, recorded in a child of `simrun` into `directory`.
    static func recordInChild(_ plan: RunPlan, seed: UInt64, into directory: URL) throws -> IsolatedRecording.Outcome {
        let launcher = try #require(children.launcher)
        return try IsolatedRecording(plan: try plan.descriptor(), launcher: launcher)
            .record(seed: seed, to: directory.appendingPathComponent("\(plan.scenario.name)-\(seed).simtrace").path)
    }

    /// Child processes of the built `simrun`: where a trap ends one child and is a finding.
    static var children: Isolation { .processes(ProcessLauncher(executable: SimrunProcess.executable.path)) }

    /// A campaign of `plan` over `seeds` (stopping at its first failure, as `fuzz` does), findings
    /// saved into `directory`.
    static func fuzz(
        _ plan: RunPlan, seeds: Range<UInt64> = 0..<10_000, shrink: Bool = true, keepGoing: Bool = false,
        isolation: Isolation = .inProcess, into directory: URL
    ) throws -> FindingCampaign.Result {
        try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: seeds, jobs: 1, keepGoing: keepGoing),
            options: .init(directory: directory.path, shrink: shrink, isolation: isolation)
        ).run()
    }

    /// `plan`'s `seeds` run in two child processes and compared seed by seed
    /// (`--check-determinism`).
    static func determinism(_ plan: RunPlan, seeds: Range<UInt64>) throws -> DeterminismCampaign.Report {
        let launcher = try #require(children.launcher)
        return try DeterminismCampaign(recording: IsolatedRecording(plan: try plan.descriptor(), launcher: launcher))
            .run(.init(start: seeds.lowerBound, stride: 1, count: seeds.count))
    }

    /// The replay of the trace at `path` in a child process of `simrun` (`simrun replay`).
    static func replayInChild(_ path: String) throws -> ReplayVerdict {
        try TraceReplay.decide(
            ReplayRequest(trace: path), catalog: ScenarioCatalog(BuiltinScenarios.all), isolation: children
        ).verdict
    }

    /// True for a run that trapped.
    static func isCrash(_ verdict: Verdict) -> Bool {
        if case .crashed = verdict { return true } else { return false }
    }
}
