import SimCore

/// Everything that determines one run apart from the seed: scenario, variant, strategy.
public struct RunPlan: Sendable {
    /// The scenario run.
    public var scenario: Scenario { didSet { goalNames = nil } }
    /// Its variant.
    public var variant: String { didSet { goalNames = nil } }
    /// The strategy each run is scheduled by.
    public var strategy: StrategySpec
    /// The run length `pct` and `delay` spread their change points over, learned by a `fifo` probe.
    public var estimatedSteps: Int
    /// A recorded schedule whose first decisions every run keeps (`fuzz --from`), or nil.
    public var prefix: SchedulePrefix?
    /// The most noise lanes a plan accepts (`--noise`).
    public static let maxNoise = 64
    /// Noise lanes added to every run (`--noise N`; 0 for none): the scenario already carries them.
    public private(set) var noise: Int
    /// The scenario as given, without the noise lanes.
    public private(set) var baseScenario: Scenario
    /// Where each run's jobs run: `.off` (one thread), or carriers, preempting at lock operations
    /// with `.preemptLocks` (`--preempt`). Recorded in the trace header, so replays run the same way.
    public var carriers: CarrierMode = .off {
        didSet { scenario = scenario.running(on: carriers) }
    }
    /// The coverage goals the `fifo` probe declared, in order; nil when the plan was given its
    /// estimate instead of probing (`goals()` runs a probe then).
    public var goalNames: [String]?

    /// Plans runs with a step estimate known already (a child process gets its parent's, a replay its
    /// recording's), on `carriers`, with the coverage goals when they are known. Runs nothing: an
    /// initializer never runs the scenario. To learn the estimate, plan with ``probed(scenario:variant:strategy:noise:carriers:)``
    /// (here) or through an ``Isolation`` (in a child, where a trap is a finding).
    public init(
        scenario: Scenario, variant: String, strategy: StrategySpec, estimatedSteps: Int, noise: Int = 0,
        carriers: CarrierMode = .off, goals: [String]? = nil
    ) {
        baseScenario = scenario
        self.scenario = scenario.withNoise(lanes: noise, variants: [variant]).running(on: carriers)
        self.variant = variant
        self.strategy = strategy
        self.noise = max(0, noise)
        self.estimatedSteps = max(estimatedSteps, 1)
        self.carriers = carriers
        goalNames = goals
    }

    /// Plans runs (of `scenario` with `noise` noise lanes, on `carriers`) by running its `fifo`
    /// schedule once, **in this process**: the run length `pct` and `delay` spread their change points
    /// over, and the coverage goals. The fifo run is the user's code like any other and may trap:
    /// where a child process exists, plan through `Isolation.plan(_:in:)` instead. The probe runs
    /// as the runs will run (under `--preempt` lock points are steps), so every process that plans
    /// the same descriptor plans the same runs.
    public static func probed(
        scenario: Scenario, variant: String, strategy: StrategySpec, noise: Int = 0, carriers: CarrierMode = .off
    ) -> RunPlan {
        var plan = RunPlan(
            scenario: scenario, variant: variant, strategy: strategy, estimatedSteps: 1, noise: noise,
            carriers: carriers)
        let probe = plan.scenario.run(variant: variant, seed: 0, strategy: FIFOStrategy())
        plan.estimatedSteps = max(probe.steps, 1)
        plan.goalNames = probe.goals
        return plan
    }

    /// This plan with `lanes` noise lanes instead of its own (the step estimate is kept).
    public func withNoise(_ lanes: Int) -> RunPlan {
        var copy = self
        copy.scenario = baseScenario.withNoise(lanes: lanes, variants: [variant]).running(on: carriers)
        copy.noise = max(0, lanes)
        return copy
    }

    /// The scenario's coverage goals, in declaration order: the planning probe's when there was one,
    /// else from a `fifo` run here (the user's code: plans that cross to children carry their goals).
    public func goals() -> [String] {
        goalNames ?? scenario.run(variant: variant, seed: 0, strategy: FIFOStrategy()).goals
    }

    /// A fresh strategy object for this plan.
    public func makeStrategy() -> any Strategy {
        let base = strategy.makeStrategy(estimatedSteps: estimatedSteps)
        (base as? DelayBoundedStrategy)?.maxHorizon = scenario.limits.maxSteps
        guard let prefix else { return base }
        return PrefixStrategy(prefix: prefix.tape, keep: prefix.keep, then: base)
    }

    /// Runs one seed without recording events (decisions and digest only).
    public func run(seed: UInt64, strategy: any Strategy, sink: any EventSink = NullSink()) -> RunResult {
        scenario.run(variant: variant, seed: seed, strategy: strategy, sink: sink)
    }

    /// Re-runs a recorded schedule (by job identity) on this plan's variant.
    public func replay(_ tape: Tape, seed: UInt64, sink: any EventSink = NullSink()) -> (RunResult, ReplayStrategy) {
        let strategy = ReplayStrategy(tape: tape)
        let result = scenario.run(variant: variant, seed: seed, strategy: strategy, sink: sink)
        return (result, strategy)
    }

    /// The header options that make a recording self-describing.
    package var options: [(String, String)] {
        [
            ("estimatedSteps", String(estimatedSteps)),
            ("maxSteps", String(scenario.limits.maxSteps)),
            ("maxVirtualNanoseconds", String(scenario.limits.maxVirtualNanoseconds)),
        ] + (noise > 0 ? [("noise", String(noise))] : [])
            + (carriers != .off ? [("carriers", carriers.rawValue)] : [])
    }
}
