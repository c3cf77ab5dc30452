/// Handlers by trigger `keyType` (Nativeblocks' action provider).
public final class NativeActionProvider {
    private var actions: [(keyType: String, action: any INativeAction)] = []

    /// A provider with no handlers.
    public init() {}

    /// Provides `action` for `keyType`, replacing an earlier one.
    public func provide(_ keyType: String, _ action: any INativeAction) {
        actions.removeAll { $0.keyType == keyType }
        actions.append((keyType, action))
    }

    /// The handler for `keyType`, if one was provided.
    public func action(for keyType: String?) -> (any INativeAction)? {
        guard let keyType else { return nil }
        return actions.first { $0.keyType == keyType }?.action
    }
}
