/// A strategy as named on the command line and in trace headers: `fifo`, `random`, `pct`,
/// `pct:depth=3`, `delay:bound=2`, `dfs:preemptions=2`, `portfolio`.
public struct StrategySpec: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        case fifo, random, pct, delay, dfs, portfolio, replay, pos, surw, coverage

        /// The strategy carries what it learned from one run into the next (`surw`'s event counts,
        /// `coverage`'s corpus), so a campaign runs it on one thread in seed order.
        public var learnsAcrossRuns: Bool { self == .surw || self == .coverage }
    }

    public var kind: Kind
    public var parameter: Int?

    public init(kind: Kind, parameter: Int? = nil) {
        self.kind = kind
        self.parameter = parameter
    }

    /// Parses `name` or `name:key=value`; nil when the name or value is not understood.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let first = parts.first, let kind = Kind(rawValue: first.lowercased()) else { return nil }
        self.kind = kind
        if parts.count == 2 {
            let valueText = parts[1].split(separator: "=").last.map(String.init) ?? ""
            guard let value = Int(valueText), value >= 0, value <= 1_000 else { return nil }
            parameter = value
        }
    }

    public var description: String { makeStrategy().description }

    /// A fresh strategy object (state lives across the runs it is used for).
    /// `estimatedSteps` is the run length `pct` and `delay` spread their change points over.
    public func makeStrategy(tape: Tape = Tape(), estimatedSteps: Int = 64) -> any Strategy {
        switch kind {
        case .fifo: FIFOStrategy()
        case .random: RandomStrategy()
        case .pct: PCTStrategy(depth: max(1, parameter ?? 3), estimatedSteps: estimatedSteps)
        case .delay: DelayBoundedStrategy(delays: parameter ?? 2, estimatedSteps: estimatedSteps)
        case .dfs: DFSStrategy(preemptionBound: parameter ?? 2)
        case .portfolio: PortfolioStrategy(estimatedSteps: estimatedSteps)
        case .replay: ReplayStrategy(tape: tape)
        case .pos: POSStrategy()
        case .surw: SURWStrategy()
        case .coverage: CoverageGuidedStrategy()
        }
    }

    public static let names =
        "fifo, random, pct[:depth=D], delay[:bound=B], dfs[:preemptions=P], portfolio, pos, surw, coverage"
}
