import ArgumentParser
import SimCore
import SimEngine

extension StrategySpec: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
    public static var defaultCompletionKind: CompletionKind { .list(Kind.allCases.map(\.rawValue)) }
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
