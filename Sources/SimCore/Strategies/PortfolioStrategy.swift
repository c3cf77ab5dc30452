/// Rotates through several strategies by seed, so one fuzzing campaign mixes their strengths. The
/// default members are random, pct (depths 2 and 3), delay (1 and 3 delays), pos, surw and rff; surw
/// and rff learn from the runs they are given, so a portfolio campaign runs in seed order on one
/// thread (`StrategySpec.Kind.learnsAcrossRuns`).
public final class PortfolioStrategy: Strategy, SharedAccessObserver, CampaignLearner {
    /// The strategies rotated through, by seed.
    public let members: [any Strategy]
    private var current: any Strategy

    /// A rotation of `members` (by default random, pct, delay for `estimatedSteps`, pos, surw, rff).
    public init(members: [any Strategy]? = nil, estimatedSteps: Int = 64) {
        let k = estimatedSteps
        let list =
            members ?? [
                RandomStrategy(), PCTStrategy(depth: 2, estimatedSteps: k), PCTStrategy(depth: 3, estimatedSteps: k),
                DelayBoundedStrategy(delays: 1, estimatedSteps: k), DelayBoundedStrategy(delays: 3, estimatedSteps: k),
                POSStrategy(), SURWStrategy(), RFFStrategy(),
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

    /// Passes shared-cell accesses on to the current member, when it watches them.
    public func observeAccess(_ access: SharedAccess) {
        (current as? any SharedAccessObserver)?.observeAccess(access)
    }

    /// The learning members' notes, in member order.
    public var learningNote: String? {
        let notes = members.compactMap { ($0 as? any CampaignLearner)?.learningNote }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}
