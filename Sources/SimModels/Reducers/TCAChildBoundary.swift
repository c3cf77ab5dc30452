extension TCA {
    /// Checks tca-boundaries' rule at a parent: of a child feature's actions, only `delegate` ones
    /// cross into the parent's logic; the child's `view` and `_internal` actions are the child's own.
    ///
    /// TCA routes every child action through the parent's action type (a `Scope` or `ifLet` case), so
    /// the parent's reducer sees them all; the rule (bocato/tca-boundaries README: the parent "should
    /// only listen to delegate actions" of its children) is that it must not react to any but
    /// `delegate`. Wrap the parent's own reducer (not the composition that also runs the child): when
    /// it changes state or returns an effect for a child's view or internal action, the run fails
    /// with the oracle `tca.boundary`.
    public struct ChildBoundary<Parent: TCAReducer, ChildAction: TCAFeatureAction>: TCAReducer
    where Parent.State: Equatable {
        let parent: Parent
        let childCase: ActionCase<Parent.Action, ChildAction>
        let name: String

        /// Runs the parent; fails the run if it reacted to a child action that is not a delegate one.
        public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
            guard let childAction = childCase.extract(action), let boundary = childAction.boundary,
                boundary.kind != "delegate"
            else { return parent.reduce(into: &state, action: action) }
            let before = state
            let effect = parent.reduce(into: &state, action: action)
            if state != before || !effect.isNone, let context = ReduceContext.current {
                context.simulation.fail(
                    "tca.boundary",
                    "\(name) reacted to its child's \(boundary.kind) action \(TCA.describe(childAction));"
                        + " only delegate actions may cross a feature boundary")
            }
            return effect
        }
    }
}

extension TCAReducer where State: Equatable {
    /// This reducer, checked against tca-boundaries' rule for the child feature reached through
    /// `childCase` (see `TCA.ChildBoundary`); `name` names the parent in the failure.
    public func checkingBoundary<ChildAction: TCAFeatureAction>(
        of childCase: TCA.ActionCase<Action, ChildAction>, name: String = "parent"
    ) -> TCA.ChildBoundary<Self, ChildAction> {
        TCA.ChildBoundary(parent: self, childCase: childCase, name: name)
    }
}

extension TCA.Effect {
    /// True for `.none` (after `merge`/`concatenate` dropped their empty parts).
    var isNone: Bool {
        if case .none = operation { return true }
        return false
    }
}
