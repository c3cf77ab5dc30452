extension Scenario {
    /// This scenario with `lanes` noise lanes added to every run (see `Simulation.addNoise`):
    /// background work that touches nothing, for testing strategies, shrinking and replay against
    /// irrelevant decisions. Zero lanes gives the scenario unchanged.
    ///
    /// Each lane posts up to twice as many ticks as the variant's own `fifo` run takes steps (plus
    /// 16), learned here by one `fifo` run per variant, so noise lasts the whole run without ever
    /// pushing it past its step limit.
    ///
    /// ```swift
    /// let noisy = LostInputNavigation.scenario.withNoise(lanes: 3)
    /// let result = noisy.run(variant: "buggy", seed: 7, strategy: PCTStrategy())
    /// ```
    public func withNoise(lanes: Int) -> Scenario { withNoise(lanes: lanes, variants: nil) }

    /// This scenario with `lanes` noise lanes, learning the tick counts only for `variants` (nil:
    /// every variant): a plan of one variant never runs another's `fifo` schedule, which may trap.
    /// A variant not probed gets the step limit's share of ticks.
    public func withNoise(lanes: Int, variants only: [String]?) -> Scenario {
        guard lanes > 0 else { return self }
        var noisy = self
        let setUp = self.setUp
        let ceiling = max(1, limits.maxSteps / (2 * lanes))
        var ticks: [String: Int] = [:]
        for variant in variants where only?.contains(variant.name) ?? true {
            let steps = run(variant: variant.name, seed: 0, strategy: FIFOStrategy()).steps
            ticks[variant.name] = min(2 * steps + 16, ceiling)
        }
        noisy.setUp = { [ticks] simulation, variant in
            setUp(simulation, variant)
            simulation.addNoise(lanes: lanes, ticks: ticks[variant] ?? ceiling)
        }
        return noisy
    }
}
