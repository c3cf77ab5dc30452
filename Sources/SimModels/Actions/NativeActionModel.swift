/// An action: the triggers that run when its `event` happens on a block.
public struct NativeActionModel: Hashable, Codable, Sendable {
    public let id: String?
    public let key: String?
    public let event: String?
    /// Every trigger of the action, flat; roots have no `parentId`.
    public let triggers: [NativeActionTriggerModel?]?

    public init(id: String?, key: String?, event: String?, triggers: [NativeActionTriggerModel?]?) {
        self.id = id
        self.key = key
        self.event = event
        self.triggers = triggers
    }
}
