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
}

/// A mutable box that closures in a simulation can write and a test can read afterwards.
public final class ValueBox<Value>: @unchecked Sendable {
    public var value: Value
    public init(_ value: Value) { self.value = value }
}
