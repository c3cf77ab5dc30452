/// Everything a handler gets for one trigger (Nativeblocks' `ActionProps`).
///
/// `variables` and `blocks` are snapshots taken when the trigger was entered, as in the iOS SDK's
/// value-typed props; `findVariable` reads the live value, as the Android runtime's
/// `onFindVariable` does. The three next-trigger callbacks run the trigger's children whose `then`
/// matches; calling one twice runs that subtree twice.
public struct ActionProps {
    /// The index of the list item the event came from, when the block is in a list.
    public var listItemIndex: Int?
    /// The frame's variables as they were when the trigger was entered.
    public var variables: [String: NativeVariableModel]?
    /// Writes a variable to the frame (an event, then its observers).
    public var onVariableChange: ((NativeVariableModel) -> Void)?
    /// The frame's blocks as they were when the trigger was entered.
    public var blocks: [String: NativeBlockModel]?
    /// Replaces a block of the frame.
    public var onChangeBlock: ((NativeBlockModel) -> Void)?
    /// The trigger being handled.
    public var trigger: NativeActionTriggerModel?
    /// Runs the trigger's NEXT children.
    public var onHandleNextTrigger: ((NativeActionTriggerModel) -> Void)?
    /// Runs the trigger's SUCCESS children.
    public var onHandleSuccessNextTrigger: ((NativeActionTriggerModel) -> Void)?
    /// Runs the trigger's FAILURE children.
    public var onHandleFailureNextTrigger: ((NativeActionTriggerModel) -> Void)?
    /// The live value of a variable now (not the snapshot).
    public var findVariable: (String) -> NativeVariableModel?
    /// The frame's scope for async work (Android's `coroutineScope`); nil when the tree has none.
    public var coroutineScope: NativeFrameScope?

    /// Props with the given snapshots and callbacks; callbacks left out do nothing.
    public init(
        listItemIndex: Int? = nil, variables: [String: NativeVariableModel]? = nil,
        onVariableChange: ((NativeVariableModel) -> Void)? = nil, blocks: [String: NativeBlockModel]? = nil,
        onChangeBlock: ((NativeBlockModel) -> Void)? = nil, trigger: NativeActionTriggerModel? = nil,
        onHandleNextTrigger: ((NativeActionTriggerModel) -> Void)? = nil,
        onHandleSuccessNextTrigger: ((NativeActionTriggerModel) -> Void)? = nil,
        onHandleFailureNextTrigger: ((NativeActionTriggerModel) -> Void)? = nil,
        findVariable: @escaping (String) -> NativeVariableModel? = { _ in nil },
        coroutineScope: NativeFrameScope? = nil
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
        self.coroutineScope = coroutineScope
    }

    /// Fires the success callback with this props' trigger.
    public func succeed() { if let trigger { onHandleSuccessNextTrigger?(trigger) } }
    /// Fires the failure callback with this props' trigger.
    public func fail() { if let trigger { onHandleFailureNextTrigger?(trigger) } }
    /// Fires the next callback with this props' trigger.
    public func next() { if let trigger { onHandleNextTrigger?(trigger) } }
}
