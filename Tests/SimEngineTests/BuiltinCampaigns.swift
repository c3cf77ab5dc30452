import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// Built-in scenarios under the engine as `simrun fuzz <name>` plans and runs them, for engine tests
/// whose runs go to children of the built `simrun` (``SimrunChildren``), whose catalog is
/// `BuiltinScenarios.all`.
enum BuiltinCampaigns {
    /// The catalog of the built `simrun`.
    static let catalog = ScenarioCatalog(BuiltinScenarios.all)

    /// The plan of `simrun fuzz name --variant variant [--strategy …] [--preempt] [--from …]`, planned
    /// as `isolation` plans it: by default in a child of `simrun` (its fifo run there, where a trap or
    /// a run on carriers is kept out of this process).
    static func plan(
        _ name: String, variant: String = "buggy", strategy: String? = nil, preempt: Bool = false,
        prefix: RunPlan.Descriptor.Prefix? = nil, in isolation: Isolation = SimrunChildren.isolation
    ) throws -> RunPlan {
        let spec = try strategy.map { try #require(StrategySpec(parsing: $0), "no strategy \($0)") } ?? .campaignDefault
        let descriptor = RunPlan.Descriptor(
            scenario: name, variant: variant, strategy: spec, estimatedSteps: 1, noise: 0,
            carriers: preempt ? .preemptLocks : .off, prefix: prefix)
        switch try isolation.plan(descriptor, in: catalog) {
        case .planned(let plan): return plan
        case .trapped(let message):
            Issue.record("\(name)/\(variant): the fifo run trapped: \(message)")
            throw SimEngineError(.failed, message)
        }
    }

    /// A campaign of `plan` over `seeds`, by default in children of `simrun`, findings saved into `directory`.
    static func fuzz(
        _ plan: RunPlan, seeds: Range<UInt64>, jobs: Int = 1, shrink: Bool = false, keepGoing: Bool = false,
        isolation: Isolation = SimrunChildren.isolation, into directory: URL
    ) throws -> FindingCampaign.Result {
        try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: seeds, jobs: jobs, keepGoing: keepGoing),
            options: .init(directory: directory.path, shrink: shrink, isolation: isolation)
        ).run()
    }

    /// Recordings of `plan` in children of `simrun`.
    static func recording(_ plan: RunPlan) throws -> IsolatedRecording {
        IsolatedRecording(plan: try plan.descriptor(), launcher: SimrunChildren.launcher)
    }

    /// The replay of the trace at `path` (on `variant`, nil: the recorded one) in a child of `simrun`.
    static func replay(_ path: String, variant: String? = nil) throws -> ReplayReport {
        try TraceReplay.decide(
            ReplayRequest(trace: path, variant: variant), catalog: catalog, isolation: SimrunChildren.isolation)
    }

    /// The files in `directory`, sorted.
    static func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }
}
