import ArgumentParser
import SimCore
import SimEngine

extension StrategySpec: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
    public static var defaultCompletionKind: CompletionKind { .list(Kind.allCases.map(\.rawValue)) }
}

/// `--strategy S`, parsed strictly: an unknown name or key and an out-of-range value are usage errors
/// whose message names the accepted form (`pct:depth must be a whole number from 1 to 1000`).
enum StrategyArgument {
    /// The parser for `@Option(transform:)`; `replay` is refused (it follows a trace: `simrun replay`).
    static let parse: @Sendable (String) throws -> StrategySpec = { text in
        switch StrategySpec.parse(text) {
        case .success(let spec) where spec.kind == .replay:
            throw NumberArgument.Refused(
                description:
                    "replay follows a recorded trace: use `simrun replay <trace>` (strategies: \(StrategySpec.names))")
        case .success(let spec): return spec
        case .failure(let error): throw error
        }
    }

    /// Help text for the option.
    static let help = ArgumentHelp(
        "The strategy: \(StrategySpec.names).", valueName: "strategy")
}

/// Quotes a path for the shell when it needs it (the printed replay commands are meant to be pasted).
func shellQuoted(_ text: String) -> String {
    let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:".contains($0) }
    return safe ? text : "'" + text.replacingAll("'", with: "'\\''") + "'"
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
