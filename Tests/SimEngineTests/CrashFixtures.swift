import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// What the engine's tests of code that traps share: the committed traces, cut copies of them, and
/// `unruly-counter`'s plans (`crashing-always` trips a precondition on every schedule, `crashing`
/// only after a stale read), planned in a child of `simrun` as `simrun run`/`fuzz` plan them.
enum CrashFixtures {
    /// The built-in scenarios, as the `simrun` children know them.
    static let catalog = ScenarioCatalog(BuiltinScenarios.all)

    /// Blueprint's reentrant update: the recorded run trapped.
    static let crashTrace = CommittedTraces.blueprintCrash
    /// The lost typed text: a failure that does not trap.
    static let lostInput = CommittedTraces.lostInput

    /// The first `count` bytes of `path`, written to `name` in `directory`.
    static func cut(_ path: String, _ count: Int, to directory: URL, _ name: String) throws -> String {
        try CommittedTraces.cut(path, count, to: directory, name)
    }

    /// `scenario/variant` under `strategy` (nil: the default of `run` and `fuzz`) with `noise` lanes,
    /// before planning.
    static func unplanned(
        _ scenario: String = "unruly-counter", variant: String, strategy: String? = nil, noise: Int = 0
    ) throws -> RunPlan.Descriptor {
        let spec =
            try strategy.map { try #require(StrategySpec(parsing: $0), "strategy \($0)") } ?? .campaignDefault
        return RunPlan.Descriptor(
            scenario: scenario, variant: variant, strategy: spec, estimatedSteps: 1, noise: noise, carriers: .off)
    }

    /// `unplanned` planned in a child (its fifo run there); nil when that run trapped, with its message.
    static func plan(_ unplanned: RunPlan.Descriptor) throws -> (plan: RunPlan?, trap: String?) {
        switch try SimrunChildren.isolation.plan(unplanned, in: catalog) {
        case .planned(let plan): return (plan, nil)
        case .trapped(let message): return (nil, message)
        }
    }

    /// The plan a run of `unplanned` records with, as `simrun run` makes it: planned in a child, or
    /// when the fifo run traps there, unplanned (a step estimate of 1).
    static func runPlan(_ unplanned: RunPlan.Descriptor) throws -> RunPlan.Descriptor {
        try plan(unplanned).plan?.descriptor() ?? unplanned
    }

    /// Seed `seed` of `plan` recorded in a child of `simrun` into `path` (`simrun run --out`).
    static func record(_ plan: RunPlan.Descriptor, seed: UInt64, to path: String) throws -> IsolatedRecording.Outcome {
        try IsolatedRecording(plan: plan, launcher: SimrunChildren.launcher).record(seed: seed, to: path)
    }

    /// The replay of `path` (`simrun replay`), in a child of `simrun`.
    static func replay(_ path: String, variant: String? = nil, noise: Int? = nil) throws -> ReplayReport {
        try TraceReplay.decide(
            ReplayRequest(trace: path, variant: variant, noise: noise), catalog: catalog,
            isolation: SimrunChildren.isolation)
    }

    /// The message of a crashed verdict ("" for any other).
    static func crashMessage(_ verdict: ReplayVerdict) -> String {
        if case .crashed(let message, _) = verdict { return message }
        return ""
    }
}
