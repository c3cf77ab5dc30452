/// Quotes a path for the shell when it needs it (the printed replay commands are meant to be pasted).
package func shellQuoted(_ text: String) -> String {
    let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:".contains($0) }
    return safe ? text : "'" + text.replacingAll("'", with: "'\\''") + "'"
}

extension String {
    /// The string with every `target` character replaced by `replacement`.
    package func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}

/// An oracle name as a file-name fragment: lowercase letters and digits, runs of anything else as one `-`.
package func fileNameSlug(_ text: String) -> String {
    let mapped = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
    return String(mapped).split(separator: "-").joined(separator: "-")
}
