import SimCore

/// Walks an action's trigger tree when an event happens (the Nativeblocks runtime's action tree).
///
/// Facts from nativeblocks/nativeblocks-core-sdk, Android runtime `frame/ActionTree.kt` (`handle`,
/// `handleTrigger`, `advanceSubTriggers`) and `NativeActionTriggerThen.fromThen`: nothing runs unless
/// the action's `event` is the event performed; root triggers (empty `parentId`) run in array order;
/// a trigger whose handler is missing goes to the fallback and its chain stops; the success,
/// failure and next callbacks run, in array order, the children of the trigger the props were built
/// for whose `then` is SUCCESS, FAILURE or NEXT; END children (and unknown `then`) never run; each
/// call of a callback walks the children again, so a callback fired twice runs the subtree twice.
public final class NativeActionTree {
    unowned let sim: Simulation
    /// Where handlers are looked up by trigger `keyType`.
    public let provider: NativeActionProvider
    /// The frame whose variables and blocks the handlers see.
    public let state: NativeFrameState
    /// The frame's scope every trigger's props carry, as `ActionTree` passes its `coroutineScope`.
    public let scope: NativeFrameScope?
    /// Triggers sent to the fallback (no handler), in order.
    public private(set) var fallbacks: [String] = []
    /// Triggers entered, in order (a trigger entered twice appears twice).
    public private(set) var entered: [String] = []

    /// A walker over `provider`'s handlers and `state`'s variables; `scope` is the frame's scope
    /// for async handlers (none: they post their work unscoped).
    public init(
        sim: Simulation, provider: NativeActionProvider, state: NativeFrameState, scope: NativeFrameScope? = nil
    ) {
        self.sim = sim
        self.provider = provider
        self.state = state
        self.scope = scope
    }

    /// Runs `action` for `event` (from a list item when `listItemIndex` is given).
    public func dispatch(_ action: NativeActionModel, event: String, listItemIndex: Int? = nil) {
        let matches = action.event == event
        sim.emit("action.dispatch", action.key ?? "", ["event": .text(event), "matched": .bool(matches)])
        guard matches else { return }
        let all = action.triggers?.compactMap { $0 } ?? []
        for root in all where root.isRoot {
            handleTrigger(root, in: action, all: all, listItemIndex: listItemIndex)
        }
    }

    /// The children of `trigger`: flat ones (by `parentId`) first, then nested ones not already seen.
    private func children(of trigger: NativeActionTriggerModel, all: [NativeActionTriggerModel])
        -> [NativeActionTriggerModel]
    {
        guard let id = trigger.id else { return trigger.subTriggers?.compactMap { $0 } ?? [] }
        var result = all.filter { $0.parentId == id }
        for nested in trigger.subTriggers?.compactMap({ $0 }) ?? []
        where !result.contains(where: { $0.id != nil && $0.id == nested.id }) {
            result.append(nested)
        }
        return result
    }

    private func handleTrigger(
        _ trigger: NativeActionTriggerModel, in action: NativeActionModel, all: [NativeActionTriggerModel],
        listItemIndex: Int?
    ) {
        let name = trigger.id ?? trigger.keyType ?? "?"
        guard let handler = provider.action(for: trigger.keyType) else {
            fallbacks.append(name)
            sim.emit("trigger.fallback", name, ["keyType": .text(trigger.keyType ?? "")])
            return
        }
        entered.append(name)
        sim.emit("trigger.enter", name, ["keyType": .text(trigger.keyType ?? "")])
        let advance: (NativeActionTriggerThen) -> (NativeActionTriggerModel) -> Void = { [unowned self] then in
            { [unowned self] _ in
                // The walker uses the trigger it built the props for, whatever the handler passes.
                let next = children(of: trigger, all: all).filter { $0.then == then }
                sim.emit("trigger.next", name, ["then": .text(then.rawValue), "children": .int(next.count)])
                for child in next { handleTrigger(child, in: action, all: all, listItemIndex: listItemIndex) }
            }
        }
        let state = self.state
        let props = ActionProps(
            listItemIndex: listItemIndex, variables: state.variables,
            onVariableChange: { state.setVariable($0) }, blocks: state.blocks,
            onChangeBlock: { state.changeBlock($0) }, trigger: trigger,
            onHandleNextTrigger: advance(.next), onHandleSuccessNextTrigger: advance(.success),
            onHandleFailureNextTrigger: advance(.failure), findVariable: { state.variables[$0] },
            coroutineScope: scope)
        handler.handle(actionProps: props)
        sim.emit("trigger.exit", name)
    }
}
