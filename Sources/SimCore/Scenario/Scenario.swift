/// A runnable situation: it sets up models, posts the first jobs and states its oracles on a fresh
/// simulation. Variants (`buggy`, `fixed`, …) share the set-up and differ in one decision of the code.
public struct Scenario: Sendable {
    /// The name commands and traces use (`counter-race`).
    public var name: String
    /// One line on the bug it shows, for `simrun list`.
    public var summary: String
    /// The versions of the code it can run; the first is the default.
    public var variants: [Variant]
    /// Steps and virtual time after which a run ends with a limit verdict.
    public var limits: RunLimits
    /// The group `simrun list --group` shows it under (nil: the app scenarios, listed by default).
    public var group: String?
    /// What the scenario needs from the concurrency runtime (`Scenario.async` sets it).
    public package(set) var concurrency: Concurrency = .kernel
    /// For a scenario built by `ObjectCheck`: the call scenarios its runs generate, so the shrinker
    /// makes the calls fewer and simpler before it shrinks the schedule (nil for other scenarios).
    public var callSpace: CallSpace?
    /// What the buggy variant's bug needs to be found: `.preemptLocks` when it is a race inside
    /// synchronous code that only lock preemption reaches (`--preempt`); `.off` for every other.
    public var bugNeeds: CarrierMode = .off
    /// Builds one run: models, first jobs, oracles.
    public var setUp: @Sendable (_ simulation: Simulation, _ variant: String) -> Void
    /// Work done before a run of a variant, outside its simulation (`withNoise` sizes its lanes by
    /// the variant's `fifo` run here, when that variant first runs, not when the scenario is built).
    package var beforeRun: (@Sendable (_ variant: String) -> Void)?

    /// One version of the scenario's code, such as `buggy` or `fixed`.
    public struct Variant: Sendable, Hashable {
        /// The name `--variant` takes and a trace's header records.
        public var name: String
        /// What this version of the code does differently.
        public var summary: String
        /// What this version needs from the concurrency runtime when that differs from its scenario's
        /// (a `fixed` variant that hops to `@MainActor` where `buggy` does not), or nil: the scenario's.
        public var concurrency: Concurrency?
        /// A variant named `name`, described by `summary`, needing what its scenario needs.
        public init(_ name: String, _ summary: String) {
            self.name = name
            self.summary = summary
        }
        /// A variant named `name`, described by `summary`, that needs `concurrency` from the runtime
        /// whatever its scenario's other variants need (an async scenario's only).
        public init(_ name: String, _ summary: String, concurrency: Concurrency) {
            self.name = name
            self.summary = summary
            self.concurrency = concurrency
        }
    }

    /// A scenario whose `setUp` builds each run; `variants` must not be empty.
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

    /// The variant run when none is named: the first.
    public var defaultVariant: String { variants[0].name }

    /// What `variant` needs from the concurrency runtime: its own need when it declares one, else the
    /// scenario's.
    public func concurrency(of variant: String) -> Concurrency {
        variants.first { $0.name == variant }?.concurrency ?? concurrency
    }

    /// True when one of the variants is called `name`.
    public func hasVariant(_ name: String) -> Bool { variants.contains { $0.name == name } }

    /// Runs one schedule of `variant` with `strategy` from `seed`, recording into `sink`.
    public func run(
        variant: String, seed: UInt64, strategy: any Strategy, sink: any EventSink = NullSink(),
        limits: RunLimits? = nil
    ) -> RunResult {
        beforeRun?(variant)
        let limits = limits ?? self.limits
        func make() -> Simulation { Simulation(seed: seed, strategy: strategy, sink: sink, limits: limits) }
        // The capture module binds the run's thread to it and picks that thread (``RunHost``).
        if let host = RunHosts.current { return host.run(self, variant: variant, make: make) }
        let simulation = make()
        setUp(simulation, variant)
        return simulation.run()
    }
}
