import ArgumentParser
import SimCore
import SimEngine

extension StrategySpec: ExpressibleByArgument {
    /// Parses `--strategy`'s value as `StrategySpec(parsing:)` does (nil for an unknown strategy).
    public init?(argument: String) { self.init(parsing: argument) }
    /// Shell completion offers the strategy kinds.
    public static var defaultCompletionKind: CompletionKind { .list(Kind.allCases.map(\.rawValue)) }
}

/// `--strategy S`, parsed strictly: an unknown name or key and an out-of-range value are usage errors
/// whose message names the accepted form (`pct:depth must be a whole number from 1 to 1000`).
enum StrategyArgument {
    /// The parser for `@Option(transform:)`; a strategy that follows a recorded trace is refused
    /// (`simrun replay` runs it).
    static let parse: @Sendable (String) throws -> StrategySpec = { text in
        switch StrategySpec.parse(text) {
        case .success(let spec) where spec.followsRecordedTrace:
            throw NumberArgument.Refused(
                description:
                    "\(spec.kind.rawValue) follows a recorded trace: use `simrun replay <trace>` (strategies: \(StrategySpec.names))"
            )
        case .success(let spec): return spec
        case .failure(let error): throw error
        }
    }

    /// Help text for the option.
    static let help = ArgumentHelp(
        "The strategy: \(StrategySpec.names) (default: \(defaultSpec), for run and fuzz alike, so `run --seed N` reproduces the seed fuzz reports).",
        valueName: "strategy")

    /// The default of `run` and `fuzz`: one default, so a seed a campaign reports fails again with
    /// `run --seed N` as printed.
    static let defaultSpec = StrategySpec.campaignDefault
}
