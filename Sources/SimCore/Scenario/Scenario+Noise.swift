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
    public func withNoise(lanes: Int) -> Scenario {
        guard lanes > 0 else { return self }
        var noisy = self
        let setUp = self.setUp
        let ceiling = max(1, limits.maxSteps / (2 * lanes))
        var ticks: [String: Int] = [:]
        for variant in variants {
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
