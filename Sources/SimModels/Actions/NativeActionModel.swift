/// An action: the triggers that run when its `event` happens on a block.
public struct NativeActionModel: Hashable, Codable, Sendable {
    /// The action's id.
    public let id: String?
    /// The key of the block the action belongs to.
    public let key: String?
    /// The block event that runs it (e.g. `onClick`).
    public let event: String?
    /// Every trigger of the action, flat; roots have no `parentId`.
    public let triggers: [NativeActionTriggerModel?]?

    /// An action of a block, as a frame's JSON describes it.
    public init(id: String?, key: String?, event: String?, triggers: [NativeActionTriggerModel?]?) {
        self.id = id
        self.key = key
        self.event = event
        self.triggers = triggers
    }
}
