import SimTrace

/// A JSON value built in code and spelled without Foundation: keys stay in the order given and
/// numbers are written the same way on every platform, so result documents are stable to diff.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A signed integer.
    case int(Int64)
    /// An unsigned integer (digests, seeds).
    case unsigned(UInt64)
    /// A finite number; written with at most `decimals` digits after the point.
    case number(Double, decimals: Int)
    /// A string, escaped when written.
    case string(String)
    /// Values in order.
    case array([JSONValue])
    /// Members in the order they are written.
    case object([Member])

    /// One key and its value in an object.
    public struct Member: Sendable, Equatable {
        /// The member's name.
        public var key: String
        /// Its value.
        public var value: JSONValue

        /// A member `key: value`.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object from `(key, value)` pairs, in order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// A string, or null when absent.
    public static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    /// The value spelled on one line.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .unsigned(let value): out += String(value)
        case .number(let value, let decimals): out += Self.spell(value, decimals: decimals)
        case .string(let value): out += JSONText.quoted(value)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                out += JSONText.quoted(member.key)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    /// A finite double with at most `decimals` fraction digits, trailing zeros dropped; JSON has no
    /// NaN or infinity, so those are written as 0.
    private static func spell(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<max(0, min(decimals, 9)) { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard abs(scaled) < 9e15 else { return String(Int64(value.rounded())) }
        let whole = Int64(scaled)
        let sign = whole < 0 ? "-" : ""
        let magnitude = whole.magnitude
        let unit = UInt64(scale)
        var text = sign + String(magnitude / unit)
        var fraction = String(magnitude % unit)
        if unit > 1 {
            fraction = String(repeating: "0", count: String(unit).count - 1 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            if !fraction.isEmpty { text += "." + fraction }
        }
        return text
    }
}
