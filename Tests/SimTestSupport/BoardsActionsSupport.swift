import SimCore

/// Runs of small hand-built simulations and of scenarios, for the Boards and Actions tests.
public enum BoardsActionsSupport {
    /// Builds a simulation with `setUp`, runs it, and returns the result.
    public static func simulate(
        seed: UInt64 = 0, strategy: any Strategy = FIFOStrategy(), _ setUp: (Simulation) -> Void
    ) -> RunResult {
        let simulation = Simulation(seed: seed, strategy: strategy)
        setUp(simulation)
        return simulation.run()
    }

    /// The first seed in `seeds` for which `variant` of `scenario` fails under `strategy`, or nil.
    /// One strategy object serves every seed, as a fuzz run does (PCT learns its step count).
    public static func firstFailingSeed(
        _ scenario: Scenario, variant: String, strategy: StrategySpec, seeds: Range<UInt64>
    ) -> (seed: UInt64, verdict: Verdict)? {
        let shared = strategy.makeStrategy()
        for seed in seeds {
            let result = scenario.run(variant: variant, seed: seed, strategy: shared)
            if result.verdict.isFailure { return (seed, result.verdict) }
        }
        return nil
    }

    /// The first failure of `variant` over `seeds` under `strategy`, with how many seeds failed.
    public static func failures(
        _ scenario: Scenario, variant: String, strategy: StrategySpec, seeds: Range<UInt64>
    ) -> (count: Int, first: Verdict?) {
        let shared = strategy.makeStrategy()
        var count = 0
        var first: Verdict?
        for seed in seeds {
            let result = scenario.run(variant: variant, seed: seed, strategy: shared)
            if result.verdict.isFailure {
                count += 1
                if first == nil { first = result.verdict }
            }
        }
        return (count, first)
    }
}

/// A mutable box that closures in a simulation can write and a test can read afterwards.
public final class ValueBox<Value>: @unchecked Sendable {
    public var value: Value
    public init(_ value: Value) { self.value = value }
}
