import SimCore

/// Runs a set-up closure as a one-off simulation with the given strategy and seed.
public func simulate(
    seed: UInt64 = 0, strategy: any Strategy = FIFOStrategy(), sink: any EventSink = NullSink(),
    limits: RunLimits = .standard, _ setUp: (Simulation) -> Void
) -> RunResult {
    let simulation = Simulation(seed: seed, strategy: strategy, sink: sink, limits: limits)
    setUp(simulation)
    return simulation.run()
}

/// Records the order in which jobs ran (by a name each job appends).
public final class OrderLog: @unchecked Sendable {
    public private(set) var entries: [String] = []
    public init() {}
    public func append(_ entry: String) { entries.append(entry) }
}
