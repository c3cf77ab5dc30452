import ArgumentParser
import SimCore
import SimEngine

extension StrategySpec: ExpressibleByArgument {
    /// Parses `--strategy`'s value as `StrategySpec(parsing:)` does (nil for an unknown strategy).
    public init?(argument: String) { self.init(parsing: argument) }
    /// Shell completion offers the strategy kinds.
    public static var defaultCompletionKind: CompletionKind { .list(Kind.allCases.map(\.rawValue)) }
}
