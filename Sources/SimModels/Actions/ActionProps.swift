/// Everything a handler gets for one trigger (Nativeblocks' `ActionProps`).
///
/// `variables` and `blocks` are snapshots taken when the trigger was entered, as in the iOS SDK's
/// value-typed props; `findVariable` reads the live value, as the Android runtime's
/// `onFindVariable` does. The three next-trigger callbacks run the trigger's children whose `then`
/// matches; calling one twice runs that subtree twice.
public struct ActionProps {
    public var listItemIndex: Int?
    public var variables: [String: NativeVariableModel]?
    public var onVariableChange: ((NativeVariableModel) -> Void)?
    public var blocks: [String: NativeBlockModel]?
    public var onChangeBlock: ((NativeBlockModel) -> Void)?
    public var trigger: NativeActionTriggerModel?
    public var onHandleNextTrigger: ((NativeActionTriggerModel) -> Void)?
    public var onHandleSuccessNextTrigger: ((NativeActionTriggerModel) -> Void)?
    public var onHandleFailureNextTrigger: ((NativeActionTriggerModel) -> Void)?
    /// The live value of a variable now (not the snapshot).
    public var findVariable: (String) -> NativeVariableModel?

    public init(
        listItemIndex: Int? = nil, variables: [String: NativeVariableModel]? = nil,
        onVariableChange: ((NativeVariableModel) -> Void)? = nil, blocks: [String: NativeBlockModel]? = nil,
        onChangeBlock: ((NativeBlockModel) -> Void)? = nil, trigger: NativeActionTriggerModel? = nil,
        onHandleNextTrigger: ((NativeActionTriggerModel) -> Void)? = nil,
        onHandleSuccessNextTrigger: ((NativeActionTriggerModel) -> Void)? = nil,
        onHandleFailureNextTrigger: ((NativeActionTriggerModel) -> Void)? = nil,
        findVariable: @escaping (String) -> NativeVariableModel? = { _ in nil }
    ) {
        self.listItemIndex = listItemIndex
        self.variables = variables
        self.onVariableChange = onVariableChange
        self.blocks = blocks
        self.onChangeBlock = onChangeBlock
        self.trigger = trigger
        self.onHandleNextTrigger = onHandleNextTrigger
        self.onHandleSuccessNextTrigger = onHandleSuccessNextTrigger
        self.onHandleFailureNextTrigger = onHandleFailureNextTrigger
        self.findVariable = findVariable
    }

    /// Fires the success callback with this props' trigger.
    public func succeed() { if let trigger { onHandleSuccessNextTrigger?(trigger) } }
    /// Fires the failure callback with this props' trigger.
    public func fail() { if let trigger { onHandleFailureNextTrigger?(trigger) } }
    /// Fires the next callback with this props' trigger.
    public func next() { if let trigger { onHandleNextTrigger?(trigger) } }
}
