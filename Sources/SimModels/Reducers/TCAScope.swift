extension TCA {
    /// Runs a child reducer on a part of the parent's state, for the child's actions only; the child's
    /// effects are lifted into parent actions.
    ///
    /// Put it before the parent's own reducer so that the child runs first (as TCA recommends): the child
    /// then sees its state before the parent changes it.
    public struct Scope<ParentState, ParentAction: Sendable, Child: TCAReducer>: TCAReducer {
        let toChildState: WritableKeyPath<ParentState, Child.State>
        let toChildAction: ActionCase<ParentAction, Child.Action>
        let child: Child

        /// Scopes `child` to `state` and the actions of the case `action`.
        public init(
            state toChildState: WritableKeyPath<ParentState, Child.State>,
            action toChildAction: ActionCase<ParentAction, Child.Action>,
            child: () -> Child
        ) {
            self.toChildState = toChildState
            self.toChildAction = toChildAction
            self.child = child()
        }

        /// Runs the child for its actions; other actions pass through untouched.
        public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
            guard let childAction = toChildAction.extract(action) else { return .none }
            return child.reduce(into: &state[keyPath: toChildState], action: childAction).map(toChildAction.embed)
        }
    }
}

extension TCA.Scope where ParentAction: TCAFeatureAction {
    /// Scopes `child` to a case of the parent's internal actions (tca-boundaries' convenience: child
    /// features live in `InternalAction`).
    public init(
        state toChildState: WritableKeyPath<ParentState, Child.State>,
        internalAction toChildAction: TCA.ActionCase<ParentAction.InternalAction, Child.Action>,
        child: () -> Child
    ) {
        self.init(state: toChildState, action: TCA.ActionCase._internal.appending(toChildAction), child: child)
    }
}
