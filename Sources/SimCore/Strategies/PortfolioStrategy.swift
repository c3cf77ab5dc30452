/// Rotates through several strategies by seed, so one fuzzing campaign mixes their strengths.
public final class PortfolioStrategy: Strategy {
    /// The strategies rotated through, by seed.
    public let members: [any Strategy]
    private var current: any Strategy

    /// A rotation of `members` (by default random, pct and delay for `estimatedSteps`).
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

    /// `portfolio`.
    public var description: String { "portfolio" }

    /// The member that runs a given seed.
    public func member(for seed: UInt64) -> any Strategy { members[Int(seed % UInt64(members.count))] }

    /// Starts the member `seed` selects.
    public func start(seed: UInt64, symbols: SymbolTable) {
        current = member(for: seed)
        current.start(seed: seed, symbols: symbols)
    }

    /// The current member's pick.
    public func pick(_ ready: ReadySet) -> Int { current.pick(ready) }
    /// The current member's choice.
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        current.choose(count, kind: kind, site: site)
    }
    /// Ends the run for the current member.
    public func finish(steps: Int) { current.finish(steps: steps) }
    /// The current member's notes.
    public var notes: [String] { current.notes }
}
