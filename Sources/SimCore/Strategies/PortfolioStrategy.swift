/// Rotates through several strategies by seed, so one fuzzing campaign mixes their strengths.
public final class PortfolioStrategy: Strategy {
    public let members: [any Strategy]
    private var current: any Strategy

    public init(members: [any Strategy]? = nil, estimatedSteps: Int = 64) {
        let k = estimatedSteps
        let list =
            members ?? [
                RandomStrategy(), PCTStrategy(depth: 2, estimatedSteps: k), PCTStrategy(depth: 3, estimatedSteps: k),
                DelayBoundedStrategy(delays: 1, estimatedSteps: k), DelayBoundedStrategy(delays: 3, estimatedSteps: k),
            ]
        precondition(!list.isEmpty, "a portfolio needs at least one strategy")
        self.members = list
        current = list[0]
    }

    public var description: String { "portfolio" }

    /// The member that runs a given seed.
    public func member(for seed: UInt64) -> any Strategy { members[Int(seed % UInt64(members.count))] }

    public func start(seed: UInt64, symbols: SymbolTable) {
        current = member(for: seed)
        current.start(seed: seed, symbols: symbols)
    }

    public func pick(_ ready: ReadySet) -> Int { current.pick(ready) }
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        current.choose(count, kind: kind, site: site)
    }
    public func finish(steps: Int) { current.finish(steps: steps) }
    public var notes: [String] { current.notes }
}
