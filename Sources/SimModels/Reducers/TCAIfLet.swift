extension TCA {
    /// A parent reducer with an optional child: the child runs first, on its state when present.
    ///
    /// As in TCA's `ifLet`: a child action that arrives while the child state is nil is dropped (TCA
    /// reports it as a logic error; the model records `reducer.drop`); the child's effects are cancellable
    /// under the child's id, and are cancelled when the parent sets the child state to nil.
    public struct IfLet<Parent: TCAReducer, Child: TCAReducer>: TCAReducer {
        let parent: Parent
        let child: Child
        let toChildState: WritableKeyPath<Parent.State, Child.State?>
        let toChildAction: ActionCase<Parent.Action, Child.Action>
        let childID: CancelID

        /// Runs `child` on `parent`'s optional `state` for the actions of the case `action`; the
        /// child's effects are cancellable under `childID` (what `ifLet(_:action:id:then:)` builds).
        public init(
            parent: Parent, child: Child, state toChildState: WritableKeyPath<Parent.State, Child.State?>,
            action toChildAction: ActionCase<Parent.Action, Child.Action>, childID: CancelID
        ) {
            self.parent = parent
            self.child = child
            self.toChildState = toChildState
            self.toChildAction = toChildAction
            self.childID = childID
        }

        /// Runs the child first, then the parent; merges their effects.
        public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
            var childEffect = Effect<Parent.Action>.none
            if let childAction = toChildAction.extract(action) {
                if var childState = state[keyPath: toChildState] {
                    childEffect = child.reduce(into: &childState, action: childAction)
                        .map(toChildAction.embed)
                        .cancellable(id: childID)
                    state[keyPath: toChildState] = childState
                } else {
                    ReduceContext.recordDrop(childID.description, childAction, reason: "child state is nil")
                }
            }
            let wasPresent = state[keyPath: toChildState] != nil
            let parentEffect = parent.reduce(into: &state, action: action)
            let dismissed = wasPresent && state[keyPath: toChildState] == nil
            return .merge(childEffect, parentEffect, dismissed ? .cancel(id: childID) : .none)
        }
    }
}

extension TCAReducer {
    /// Embeds an optional child feature: `child` handles the case `action` while `state` is non-nil.
    /// `id` names the child's effects for cancellation (default: the child's type).
    public func ifLet<Child: TCAReducer>(
        _ toChildState: WritableKeyPath<State, Child.State?>,
        action toChildAction: TCA.ActionCase<Action, Child.Action>,
        id: String? = nil,
        then child: () -> Child
    ) -> TCA.IfLet<Self, Child> {
        TCA.IfLet(
            parent: self, child: child(), state: toChildState, action: toChildAction,
            childID: TCA.CancelID(named: "ifLet." + (id ?? String(describing: Child.self))))
    }
}

extension TCAReducer where Action: TCAFeatureAction {
    /// Embeds an optional child feature scoped through a case of this feature's internal actions.
    public func ifLet<Child: TCAReducer>(
        _ toChildState: WritableKeyPath<State, Child.State?>,
        internalAction toChildAction: TCA.ActionCase<Action.InternalAction, Child.Action>,
        id: String? = nil,
        then child: () -> Child
    ) -> TCA.IfLet<Self, Child> {
        ifLet(toChildState, action: TCA.ActionCase._internal.appending(toChildAction), id: id, then: child)
    }
}
