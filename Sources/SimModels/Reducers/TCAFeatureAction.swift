/// An action split at the boundaries of a feature (bocato/tca-boundaries, after merowing.info's
/// "Boundaries in TCA"): what the view sends, what the feature sends itself, and what it tells its parent.
///
/// ```swift
/// enum Action: TCAFeatureAction {
///     enum ViewAction: Equatable, Sendable { case onTapLoginButton }
///     enum InternalAction: Equatable, Sendable { case loginResult(Bool) }
///     enum DelegateAction: Equatable, Sendable { case notifyLoginSuccess }
///     case view(ViewAction)
///     case _internal(InternalAction)
///     case delegate(DelegateAction)
/// }
/// ```
/// View and internal actions should not leave the feature; a child feature is usually scoped through an
/// internal action of its parent (`case child(ChildAction)` in `InternalAction`).
public protocol TCAFeatureAction: Equatable, Sendable {
    /// Actions sent by the view (taps, text changes, appearance).
    associatedtype ViewAction: Equatable & Sendable
    /// Actions the feature sends itself: effect results, reused steps, child features.
    associatedtype InternalAction: Equatable & Sendable
    /// Actions that tell a parent what happened (the delegate pattern).
    associatedtype DelegateAction: Equatable & Sendable

    /// Wraps a view action.
    static func view(_ action: ViewAction) -> Self
    /// Wraps an internal action.
    static func _internal(_ action: InternalAction) -> Self
    /// Wraps a delegate action.
    static func delegate(_ action: DelegateAction) -> Self

    /// The action unwrapped at its boundary, or nil when it is none of the three cases.
    var boundary: TCA.Boundary<ViewAction, InternalAction, DelegateAction>? { get }
}

extension TCA {
    /// A feature action unwrapped at its boundary.
    public enum Boundary<ViewAction, InternalAction, DelegateAction> {
        /// An action the view sends.
        case view(ViewAction)
        case _internal(InternalAction)
        /// An action the feature sends to its parent.
        case delegate(DelegateAction)

        /// `view`, `internal` or `delegate`: the `kind` field of `reducer.reduce` events.
        public var kind: String {
            switch self {
            case .view: "view"
            case ._internal: "internal"
            case .delegate: "delegate"
            }
        }
    }
}

extension TCAFeatureAction {
    /// Unwraps an enum written as in the example above (cases `view`, `_internal`, `delegate`), by
    /// reflection; conformers may implement it with a `switch` instead.
    public var boundary: TCA.Boundary<ViewAction, InternalAction, DelegateAction>? {
        guard let payload = Mirror(reflecting: self).children.first else { return nil }
        switch payload.label {
        case "view": return (payload.value as? ViewAction).map { .view($0) }
        case "_internal": return (payload.value as? InternalAction).map { ._internal($0) }
        case "delegate": return (payload.value as? DelegateAction).map { .delegate($0) }
        default: return nil
        }
    }

    /// `view`, `internal`, `delegate`, or `unknown` when the action is none of them.
    public var boundaryKind: String { boundary?.kind ?? "unknown" }
}
