import SwiftSyntax

/// The mutation operators, by the name the tool prints and the equivalents list keys on.
///
/// Each one is a change that makes code give a different answer without failing to compile in the
/// common case: a wrong answer a test should notice.
enum Operator: String, CaseIterable {
    /// `<` ↔ `<=`, `>` ↔ `>=`: the edge of a range moves by one.
    case boundary
    /// `<` → `>=`, `==` ↔ `!=`, …: the comparison says the opposite.
    case relational
    /// `&&` ↔ `||`.
    case logical
    /// A condition of `if`, `guard`, `while` or a ternary becomes `!(condition)`.
    case negateCondition = "negate-condition"
    /// `!x` → `x`.
    case removeNegation = "remove-negation"
    /// `true` ↔ `false`.
    case booleanLiteral = "boolean-literal"
    /// `allSatisfy` ↔ `contains(where:)`.
    case quantifier
    /// `first` ↔ `last`, `min` ↔ `max`, `dropFirst` ↔ `dropLast`, `prefix` ↔ `suffix`, …
    case ends
    /// `+` ↔ `-`, `+=` ↔ `-=`.
    case arithmetic
    /// An integer literal added or subtracted moves by one (`n - 1` → `n - 0`).
    case offByOne = "off-by-one"
    /// A statement that does something (a call, an assignment) is removed.
    case removeStatement = "remove-statement"
    /// An `if` without `else` that returns, throws, breaks or continues is removed; so is a `guard`
    /// that binds nothing.
    case removeEarlyExit = "remove-early-exit"
}

/// One generated mutant: a byte range of one file and the text that replaces it.
struct Mutant {
    var file: String
    var line: Int
    var column: Int
    /// UTF-8 offsets in the file, `start..<end`.
    var start: Int
    var end: Int
    var original: String
    var replacement: String
    var op: Operator
    /// The declaration the change sits in (`Type.function`), for the stable key and the report.
    var function: String
    /// How the change reads in the report: "`<` → `<=`".
    var change: String
    /// The how-many-th mutant with the same file, function, operator, original and replacement
    /// (from 1), so the key survives code moving around it.
    var occurrence = 1

    /// A key that survives edits elsewhere in the file: the equivalents list and `--only` use it.
    var key: String {
        "\(file)|\(function)|\(op.rawValue)|\(Self.squeeze(original))|\(Self.squeeze(replacement))|\(occurrence)"
    }

    /// One line of whitespace-squeezed text, so the key does not depend on indentation.
    static func squeeze(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }
}
