/// A frame variable: handlers read it and write it through `onVariableChange`.
public struct NativeVariableModel: Hashable, Codable, Sendable {
    public let key: String
    public var value: String
    public let type: String

    public init(key: String, value: String, type: String = "STRING") {
        self.key = key
        self.value = value
        self.type = type
    }
}

/// A block of the frame (a piece of the screen) with its properties.
public struct NativeBlockModel: Hashable, Codable, Sendable {
    public let key: String
    public let keyType: String
    public var properties: [String: String]

    public init(key: String, keyType: String, properties: [String: String] = [:]) {
        self.key = key
        self.keyType = keyType
        self.properties = properties
    }
}
