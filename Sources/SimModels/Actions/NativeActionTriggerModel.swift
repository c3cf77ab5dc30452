/// What runs after a trigger: the children whose `then` matches the callback the handler fires.
///
/// From nativeblocks-core-sdk's `NativeActionTriggerThen.fromThen`: an unknown value is END.
public enum NativeActionTriggerThen: String, Hashable, Codable, Sendable {
    /// Runs when the action succeeded.
    case success = "SUCCESS"
    /// Runs when the action failed.
    case failure = "FAILURE"
    /// Runs after the action, whatever its result (the next sibling).
    case next = "NEXT"
    /// Nothing runs after it.
    case end = "END"

    /// Parses a raw value; missing or unknown values are `.end`.
    public init(parsing raw: String?) {
        self = raw.flatMap(NativeActionTriggerThen.init(rawValue:)) ?? .end
    }
}

/// One piece of data of a trigger: a key, a value and its type.
public struct NativeActionTriggerDataModel: Hashable, Codable, Sendable {
    /// The data item's name.
    public let key: String
    /// Its value, as text.
    public let value: String
    /// Its type name (`STRING` by default).
    public let type: String

    /// A data item.
    public init(key: String, value: String, type: String = "STRING") {
        self.key = key
        self.value = value
        self.type = type
    }
}

/// One property (setting) of a trigger: a key, a value and its type.
public struct NativeActionTriggerPropertyModel: Hashable, Codable, Sendable {
    /// The property's name.
    public let key: String
    /// Its value, as text.
    public let value: String
    /// Its type name (`STRING` by default).
    public let type: String

    /// A property.
    public init(key: String, value: String, type: String = "STRING") {
        self.key = key
        self.value = value
        self.type = type
    }
}

/// A step of an action: which handler (`keyType`) runs it and under which parent outcome (`then`).
public struct NativeActionTriggerModel: Hashable, Codable, Sendable {
    /// The trigger's id, which its children name as `parentId`.
    public let id: String?
    /// The parent trigger's id; nil or empty for a root trigger.
    public let parentId: String?
    /// Which handler runs it.
    public let keyType: String?
    /// The parent outcome this trigger runs on (nil is END: it never runs as a child).
    public let then: NativeActionTriggerThen?
    /// The trigger's settings, by key.
    public let properties: [String: NativeActionTriggerPropertyModel]?
    /// The trigger's data, by key.
    public let data: [String: NativeActionTriggerDataModel]?
    /// Nested children, for trees written nested instead of flat with `parentId`.
    public var subTriggers: [NativeActionTriggerModel?]?

    /// A trigger as a frame's JSON describes it.
    public init(
        id: String?, parentId: String? = nil, keyType: String?, then: NativeActionTriggerThen? = nil,
        properties: [String: NativeActionTriggerPropertyModel]? = nil,
        data: [String: NativeActionTriggerDataModel]? = nil, subTriggers: [NativeActionTriggerModel?]? = nil
    ) {
        self.id = id
        self.parentId = parentId
        self.keyType = keyType
        self.then = then
        self.properties = properties
        self.data = data
        self.subTriggers = subTriggers
    }

    /// True when the trigger has no parent.
    public var isRoot: Bool { parentId?.isEmpty ?? true }

    /// A data value by key.
    public func dataValue(_ key: String) -> String? { data?[key]?.value }

    /// A property value by key.
    public func propertyValue(_ key: String) -> String? { properties?[key]?.value }
}
