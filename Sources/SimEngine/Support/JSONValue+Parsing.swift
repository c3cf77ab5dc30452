/// Reading JSON documents back (a shard's result file, for `simrun merge`), without Foundation.
extension JSONValue {
    /// The deepest nesting a document may have: deeper input is refused, not recursed into.
    public static let maxDepth = 64

    /// Parses one JSON document (RFC 8259): integers become `int` (or `unsigned` above `Int64.max`),
    /// other numbers `number`; object members keep their order.
    public init(parsing text: String) throws(JSONParseError) {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.skipSpace()
        self = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.error("text after the document") }
    }

    /// The member named `key` of an object (the first, if repeated); nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, if this is one.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The number as a non-negative whole number, if it is one.
    public var unsignedValue: UInt64? {
        switch self {
        case .unsigned(let value): value
        case .int(let value): value >= 0 ? UInt64(value) : nil
        default: nil
        }
    }

    /// The number as a whole number, if it is one that fits.
    public var intValue: Int? {
        switch self {
        case .int(let value): Int(exactly: value)
        case .unsigned(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The number, whatever its kind.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .number(let value, _): value
        default: nil
        }
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let values) = self else { return nil }
        return values
    }
}

/// Why a JSON document could not be read: what was expected, and at which byte.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset where reading stopped.
    public var offset: Int
    /// What was wrong there.
    public var reason: String

    /// `reason` at byte `offset`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// `offset N: reason`.
    public var description: String { "offset \(offset): \(reason)" }
}

/// A recursive-descent reader over UTF-8 bytes, bounded in depth.
private struct JSONParser {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ reason: String) -> JSONParseError { JSONParseError(offset: position, reason: reason) }

    mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONValue.maxDepth else { throw error("nested deeper than \(JSONValue.maxDepth) levels") }
        guard position < bytes.count else { throw error("expected a value, found the end") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("expected a value")
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let spelled = Array(word.utf8)
        guard bytes.count - position >= spelled.count, Array(bytes[position..<position + spelled.count]) == spelled
        else { throw error("expected \(word)") }
        position += spelled.count
        return value
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        var members: [JSONValue.Member] = []
        try elements(closedBy: "}", of: "object") { (parser: inout JSONParser) throws(JSONParseError) in
            guard parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: "\"") else {
                throw parser.error("expected a key")
            }
            let key = try parser.string()
            parser.skipSpace()
            guard parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: ":") else {
                throw parser.error("expected ':'")
            }
            parser.position += 1
            parser.skipSpace()
            members.append(.init(key, try parser.value(depth: depth + 1)))
        }
        return .object(members)
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        var values: [JSONValue] = []
        try elements(closedBy: "]", of: "array") { (parser: inout JSONParser) throws(JSONParseError) in
            values.append(try parser.value(depth: depth + 1))
        }
        return .array(values)
    }

    /// The comma-separated elements of an object or array, from its opening bracket to `close`.
    mutating func elements(
        closedBy close: Unicode.Scalar, of kind: String,
        _ element: (inout JSONParser) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        let closing = UInt8(ascii: close)
        position += 1
        skipSpace()
        if position < bytes.count, bytes[position] == closing {
            position += 1
            return
        }
        while true {
            skipSpace()
            try element(&self)
            skipSpace()
            guard position < bytes.count else { throw error("unterminated \(kind)") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == closing {
                position += 1
                return
            } else {
                throw error("expected ',' or '\(close)'")
            }
        }
    }

    mutating func string() throws(JSONParseError) -> String {
        position += 1
        var run = position  // start of the bytes copied as they are
        var text = ""
        func flush(_ end: Int) { text += String(decoding: bytes[run..<end], as: UTF8.self) }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                flush(position)
                position += 1
                return text
            }
            if byte < 0x20 { throw error("control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                position += 1
                continue
            }
            flush(position)
            position += 1
            guard position < bytes.count else { break }
            let escape = bytes[position]
            position += 1
            if let scalar = Self.escaped(escape) {
                text.unicodeScalars.append(scalar)
            } else if escape == UInt8(ascii: "u") {
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw error("a lone surrogate in \\u escapes") }
                    position += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in \\u escapes") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("a lone surrogate in \\u escapes") }
                text.unicodeScalars.append(scalar)
            } else {
                throw error("unknown escape")
            }
            run = position
        }
        throw error("unterminated string")
    }

    /// The character a one-letter escape stands for.
    static func escaped(_ letter: UInt8) -> Unicode.Scalar? {
        switch letter {
        case UInt8(ascii: "\""): "\""
        case UInt8(ascii: "\\"): "\\"
        case UInt8(ascii: "/"): "/"
        case UInt8(ascii: "b"): "\u{08}"
        case UInt8(ascii: "f"): "\u{0C}"
        case UInt8(ascii: "n"): "\n"
        case UInt8(ascii: "r"): "\r"
        case UInt8(ascii: "t"): "\t"
        default: nil
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw error("expected 4 hex digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected 4 hex digits")
            }
            code = code << 4 | UInt32(digit)
            position += 1
        }
        return code
    }

    mutating func number() throws(JSONParseError) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let digitsStart = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            position += 1
        }
        guard position > digitsStart else { throw error("expected digits") }
        var decimals = 0
        var isWhole = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isWhole = false
            position += 1
            let fraction = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            decimals = position - fraction
            guard decimals > 0 else { throw error("expected digits after '.'") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isWhole = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            let exponent = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            guard position > exponent else { throw error("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isWhole, let value = Int64(text) { return .int(value) }
        if isWhole, let value = UInt64(text) { return .unsigned(value) }
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return .number(value, decimals: decimals)
    }
}
