/// A frame variable: handlers read it and write it through `onVariableChange`.
public struct NativeVariableModel: Hashable, Codable, Sendable {
    /// The variable's name.
    public let key: String
    /// Its value, as text.
    public var value: String
    /// Its type name (`STRING` by default).
    public let type: String

    /// A variable.
    public init(key: String, value: String, type: String = "STRING") {
        self.key = key
        self.value = value
        self.type = type
    }
}

/// A block of the frame (a piece of the screen) with its properties.
public struct NativeBlockModel: Hashable, Codable, Sendable {
    /// The block's key within the frame.
    public let key: String
    /// The kind of block (which component renders it).
    public let keyType: String
    /// The block's properties, by name.
    public var properties: [String: String]

    /// A block.
    public init(key: String, keyType: String, properties: [String: String] = [:]) {
        self.key = key
        self.keyType = keyType
        self.properties = properties
    }
}
