/// A reducer whose actions are split at boundaries (bocato/tca-boundaries): each kind of action goes to
/// its own `reduce`. Internal and delegate actions are ignored unless handled.
///
/// ```swift
/// struct Login: BoundingReducer {
///     func reduce(into state: inout State, viewAction action: Action.ViewAction) -> TCA.Effect<Action> { … }
///     func reduce(into state: inout State, internalAction action: Action.InternalAction) -> TCA.Effect<Action> { … }
/// }
/// ```
public protocol BoundingReducer: TCAReducer where Action: TCAFeatureAction {
    /// Handles an action sent by the view.
    func reduce(into state: inout State, viewAction action: Action.ViewAction) -> TCA.Effect<Action>
    /// Handles an action the feature sent itself.
    func reduce(into state: inout State, internalAction action: Action.InternalAction) -> TCA.Effect<Action>
    /// Handles an action delegated to this feature.
    func reduce(into state: inout State, delegateAction action: Action.DelegateAction) -> TCA.Effect<Action>
}

extension BoundingReducer {
    /// Internal actions do nothing by default.
    public func reduce(into state: inout State, internalAction action: Action.InternalAction) -> TCA.Effect<Action> {
        .none
    }

    /// Delegate actions do nothing by default (usually a parent handles them).
    public func reduce(into state: inout State, delegateAction action: Action.DelegateAction) -> TCA.Effect<Action> {
        .none
    }

    /// Dispatches `action` to the `reduce` of its boundary and records `reducer.reduce` with the kind.
    /// An action that is none of the three cases does nothing.
    public func reduceCore(into state: inout State, action: Action) -> TCA.Effect<Action> {
        TCA.ReduceContext.recordReduce(String(describing: Self.self), action)
        switch action.boundary {
        case .view(let viewAction)?: return reduce(into: &state, viewAction: viewAction)
        case ._internal(let internalAction)?: return reduce(into: &state, internalAction: internalAction)
        case .delegate(let delegateAction)?: return reduce(into: &state, delegateAction: delegateAction)
        case nil: return .none
        }
    }

    /// A reducer without a body is its boundary dispatch.
    public func reduce(into state: inout State, action: Action) -> TCA.Effect<Action> {
        reduceCore(into: &state, action: action)
    }
}
