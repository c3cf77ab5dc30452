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

    /// Plans runs (of `scenario` with `noise` noise lanes, on `carriers`), learning the step estimate
    /// from one `fifo` run of the scenario as the runs will run it: under `--preempt` lock points are
    /// steps, so a probe without them would plan another run than a probe in another process plans.
    public init(
        scenario: Scenario, variant: String, strategy: StrategySpec, noise: Int = 0, carriers: CarrierMode = .off
    ) {
        baseScenario = scenario
        let scenario = scenario.withNoise(lanes: noise, variants: [variant]).running(on: carriers)
        self.scenario = scenario
        self.variant = variant
        self.strategy = strategy
        self.noise = max(0, noise)
        self.carriers = carriers
        let probe = scenario.run(variant: variant, seed: 0, strategy: FIFOStrategy())
        estimatedSteps = max(probe.steps, 1)
        goalNames = probe.goals
    }

    /// Plans runs with a step estimate learned elsewhere (a fuzz worker gets its parent's): no probe.
    public init(scenario: Scenario, variant: String, strategy: StrategySpec, estimatedSteps: Int, noise: Int = 0) {
        baseScenario = scenario
        self.scenario = scenario.withNoise(lanes: noise, variants: [variant])
        self.variant = variant
        self.strategy = strategy
        self.noise = max(0, noise)
        self.estimatedSteps = max(estimatedSteps, 1)
    }

    /// This plan with `lanes` noise lanes instead of its own (the step estimate is kept).
    public func withNoise(_ lanes: Int) -> RunPlan {
        var copy = self
        copy.scenario = baseScenario.withNoise(lanes: lanes, variants: [variant]).running(on: carriers)
        copy.noise = max(0, lanes)
        return copy
    }

    /// The scenario's coverage goals, in declaration order (from the probe when there was one).
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
