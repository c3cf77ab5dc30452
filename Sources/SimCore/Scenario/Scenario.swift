/// A runnable situation: it sets up models, posts the first jobs and states its oracles on a fresh
/// simulation. Variants (`buggy`, `fixed`, …) share the set-up and differ in one decision of the code.
public struct Scenario: Sendable {
    public var name: String
    public var summary: String
    public var variants: [Variant]
    public var limits: RunLimits
    /// The group `simrun list --group` shows it under (nil: the app scenarios, listed by default).
    public var group: String?
    /// What the scenario needs from the concurrency runtime (`Scenario.async` sets it).
    public internal(set) var concurrency: Concurrency = .kernel
    /// Builds one run: models, first jobs, oracles.
    public var setUp: @Sendable (_ simulation: Simulation, _ variant: String) -> Void

    public struct Variant: Sendable, Hashable {
        public var name: String
        public var summary: String
        public init(_ name: String, _ summary: String) {
            self.name = name
            self.summary = summary
        }
    }

    public init(
        name: String, summary: String, variants: [Variant], limits: RunLimits = .standard, group: String? = nil,
        setUp: @escaping @Sendable (_ simulation: Simulation, _ variant: String) -> Void
    ) {
        precondition(!variants.isEmpty, "a scenario needs at least one variant")
        self.name = name
        self.summary = summary
        self.variants = variants
        self.limits = limits
        self.group = group
        self.setUp = setUp
    }

    public var defaultVariant: String { variants[0].name }

    public func hasVariant(_ name: String) -> Bool { variants.contains { $0.name == name } }

    /// Runs one schedule of `variant` with `strategy` from `seed`, recording into `sink`.
    public func run(
        variant: String, seed: UInt64, strategy: any Strategy, sink: any EventSink = NullSink(),
        limits: RunLimits? = nil
    ) -> RunResult {
        guard concurrency != .kernel else {
            let simulation = Simulation(seed: seed, strategy: strategy, sink: sink, limits: limits ?? self.limits)
            setUp(simulation, variant)
            return simulation.run()
        }
        let run = {
            let simulation = Simulation(seed: seed, strategy: strategy, sink: sink, limits: limits ?? self.limits)
            self.setUp(simulation, variant)
            // The run's capture is bound to this thread by its set-up; later jobs are not its own.
            defer { ExecutorCapture.bind(nil) }
            return simulation.run()
        }
        return ExecutorCapture.ensureRoute() == .enqueueHook ? runOnPlainThread(run) : run()
    }
}
