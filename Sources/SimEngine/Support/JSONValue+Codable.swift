/// `Codable` over ``JSONValue``, without Foundation: what crosses a process boundary (a child's job,
/// its replies) is a `Codable` value, encoded and decoded here, never a hand-written codec.
///
/// One schema rule, enforced here for every type: every member is written, an absent optional as
/// `null`; every member is required when read, and `null` is the only way to say "absent". So a
/// member added to a type and forgotten by an older writer is an error naming it, never a silently
/// different value (synthesized `Codable` alone would read a missing optional as nil).
package struct JSONValueEncoder {
    /// An encoder.
    package init() {}

    /// `value` as a JSON value; a value that cannot be encoded is a `failed` error naming where.
    package func encode<T: Encodable>(_ value: T) throws(SimEngineError) -> JSONValue {
        let node = EncodingNode()
        do {
            try value.encode(to: ValueEncoder(node: node, codingPath: []))
        } catch {
            throw SimEngineError(.failed, "cannot encode \(T.self): \(error)")
        }
        return node.json
    }
}

/// Decodes `Codable` values from ``JSONValue``, every member required (see ``JSONValueEncoder``).
package struct JSONValueDecoder {
    /// The value's name in messages ("child job").
    package var what: String

    /// A decoder naming what it reads as `what` in its errors.
    package init(what: String) { self.what = what }

    /// The `T` in `value`; a missing member, a mistyped one or a bad value is a usage error naming
    /// the member and where it is.
    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(SimEngineError) -> T {
        do {
            return try T(from: ValueDecoder(value: value, codingPath: []))
        } catch let error as DecodingError {
            throw .usage("\(what): \(Self.describe(error))")
        } catch {
            throw .usage("\(what): \(error)")
        }
    }

    /// Parses `text` and decodes the `T` in it.
    package func decode<T: Decodable>(_ type: T.Type, fromText text: String) throws(SimEngineError) -> T {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw .usage("\(what): not JSON (\(error.reason) at offset \(error.offset))")
        }
        return try decode(type, from: value)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the value" : "'" + keys.map(\.stringValue).joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let within = context.codingPath.isEmpty ? "" : " in \(path(context.codingPath))"
            return "no '\(key.stringValue)'\(within)"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)) is not \(Self.name(type))"
        case .valueNotFound(let type, let context): return "\(path(context.codingPath)) is null, not \(Self.name(type))"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    private static func name(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type: "an integer"
        case is UInt64.Type, is UInt.Type, is UInt32.Type, is UInt16.Type, is UInt8.Type: "an unsigned integer"
        default: "a \(type)"
        }
    }
}

extension JSONValue {
    /// Whether this is `null`.
    fileprivate var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

// MARK: Encoding

/// A value being built: a leaf, an object's members or an array's elements, filled in by the
/// containers of one `Encoder` and read once the whole value is encoded.
private final class EncodingNode {
    var leaf: JSONValue?
    var members: [(key: String, node: EncodingNode)]?
    var elements: [EncodingNode]?

    var json: JSONValue {
        if let members { return .object(members.map { JSONValue.Member($0.key, $0.node.json) }) }
        if let elements { return .array(elements.map(\.json)) }
        return leaf ?? .null
    }

    func child(_ key: String) -> EncodingNode {
        let node = EncodingNode()
        if members == nil { members = [] }
        members?.append((key, node))
        return node
    }

    func element() -> EncodingNode {
        let node = EncodingNode()
        if elements == nil { elements = [] }
        elements?.append(node)
        return node
    }
}

/// The leaf a primitive becomes; nil for a type that encodes itself.
private func primitive<T>(_ value: T) -> JSONValue? {
    switch value {
    case let value as String: .string(value)
    case let value as Bool: .bool(value)
    case let value as Int: .int(Int64(value))
    case let value as Int64: .int(value)
    case let value as Int32: .int(Int64(value))
    case let value as Int16: .int(Int64(value))
    case let value as Int8: .int(Int64(value))
    case let value as UInt64: .unsigned(value)
    case let value as UInt: .unsigned(UInt64(value))
    case let value as UInt32: .unsigned(UInt64(value))
    case let value as UInt16: .unsigned(UInt64(value))
    case let value as UInt8: .unsigned(UInt64(value))
    // Nine decimals: exact for the seconds and rates that cross (JSONValue spells no more).
    case let value as Double: .number(value, decimals: 9)
    case let value as Float: .number(Double(value), decimals: 9)
    default: nil
    }
}

private func encode<T: Encodable>(_ value: T, into node: EncodingNode, path: [any CodingKey]) throws {
    if let leaf = primitive(value) {
        node.leaf = leaf
    } else {
        try value.encode(to: ValueEncoder(node: node, codingPath: path))
    }
}

private struct ValueEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.members == nil { node.members = [] }
        return KeyedEncodingContainer(KeyedEncoder<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.elements == nil { node.elements = [] }
        return UnkeyedEncoder(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleEncoder(node: node, codingPath: codingPath) }
}

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(key.stringValue).leaf = .null }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try SimEngine.encode(value, into: node.child(key.stringValue), path: codingPath + [key])
    }

    // The schema rule: an absent optional is written, as `null` (synthesized code calls these).
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }

    private mutating func present<T: Encodable>(_ value: T?, _ key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = node.child(key.stringValue)
        child.members = []
        return KeyedEncodingContainer(KeyedEncoder<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(key.stringValue)
        child.elements = []
        return UnkeyedEncoder(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(node: node.child("super"), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ValueEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedEncoder: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.elements?.count ?? 0 }

    mutating func encodeNil() throws { node.element().leaf = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [IndexKey(count)]
        try SimEngine.encode(value, into: node.element(), path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = node.element()
        child.members = []
        return KeyedEncodingContainer(KeyedEncoder<NestedKey>(node: child, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.element()
        child.elements = []
        return UnkeyedEncoder(node: child, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(node: node.element(), codingPath: codingPath) }
}

private struct SingleEncoder: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.leaf = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { try SimEngine.encode(value, into: node, path: codingPath) }
}

/// An array position as a coding key (for paths in messages).
private struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ index: Int) {
        stringValue = String(index)
        intValue = index
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

// MARK: Decoding

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: ""))
        }
        return KeyedDecodingContainer(KeyedDecoder<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let values) = value else {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: ""))
        }
        return UnkeyedDecoder(values: values, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleDecoder(value: value, codingPath: codingPath)
    }
}

/// `T` from `value`: primitives read directly (an integer from any whole number that fits it),
/// anything else through its own `init(from:)`.
private func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, path: [any CodingKey]) throws -> T {
    func mismatch() -> DecodingError {
        value.isNull
            ? .valueNotFound(T.self, .init(codingPath: path, debugDescription: ""))
            : .typeMismatch(T.self, .init(codingPath: path, debugDescription: ""))
    }
    func integer<I: FixedWidthInteger>(_: I.Type) throws -> I {
        switch value {
        case .int(let number): if let fitted = I(exactly: number) { return fitted }
        case .unsigned(let number): if let fitted = I(exactly: number) { return fitted }
        default: break
        }
        throw mismatch()
    }
    let decoded: Any
    switch type {
    case is String.Type:
        guard case .string(let text) = value else { throw mismatch() }
        decoded = text
    case is Bool.Type:
        guard case .bool(let flag) = value else { throw mismatch() }
        decoded = flag
    case is Double.Type:
        guard let number = value.doubleValue else { throw mismatch() }
        decoded = number
    case is Float.Type:
        guard let number = value.doubleValue else { throw mismatch() }
        decoded = Float(number)
    case is Int.Type: decoded = try integer(Int.self)
    case is Int64.Type: decoded = try integer(Int64.self)
    case is Int32.Type: decoded = try integer(Int32.self)
    case is Int16.Type: decoded = try integer(Int16.self)
    case is Int8.Type: decoded = try integer(Int8.self)
    case is UInt64.Type: decoded = try integer(UInt64.self)
    case is UInt.Type: decoded = try integer(UInt.self)
    case is UInt32.Type: decoded = try integer(UInt32.self)
    case is UInt16.Type: decoded = try integer(UInt16.self)
    case is UInt8.Type: decoded = try integer(UInt8.self)
    default: return try T(from: ValueDecoder(value: value, codingPath: path))
    }
    guard let typed = decoded as? T else { throw mismatch() }
    return typed
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [JSONValue.Member]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    /// The member `key`, which must be there (the schema rule: `null`, never absence, says "none").
    private func member(_ key: Key) throws -> JSONValue {
        guard let found = members.first(where: { $0.key == key.stringValue }) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: ""))
        }
        return found.value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).isNull }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try SimEngine.decode(type, from: try member(key), path: codingPath + [key])
    }

    // The schema rule: a missing optional is an error, `null` is nil (synthesized code calls these).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(type, key) }

    private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let value = try member(key)
        return value.isNull ? nil : try SimEngine.decode(type, from: value, path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: try member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members.first { $0.key == "super" }?.value ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: try member(key), codingPath: codingPath + [key])
    }
}

private struct UnkeyedDecoder: UnkeyedDecodingContainer {
    let values: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(values: [JSONValue], codingPath: [any CodingKey]) {
        self.values = values
        self.codingPath = codingPath
    }

    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    private mutating func next<T>(_ type: T.Type) throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "past the end"))
        }
        defer { currentIndex += 1 }
        return (values[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, values[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try SimEngine.decode(type, from: value, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (value, path) = try next([String: Any].self)
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([Any].self)
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(Any.self)
        return ValueDecoder(value: value, codingPath: path)
    }
}

private struct SingleDecoder: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value.isNull }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try SimEngine.decode(type, from: value, path: codingPath) }
}
