/// A bounding reducer with a body that composes its own boundary dispatch (`coreReducer`) with child
/// features, e.g. `coreReducer.ifLet(\.child, internalAction: .child) { Child() }`.
public protocol ComposedBoundingReducer: BoundingReducer {
    /// The composition that handles every action.
    associatedtype Body: TCAReducer where Body.State == State, Body.Action == Action

    /// The composition; `coreReducer` is this feature's own `reduce` functions.
    @TCA.ReducerBuilder<State, Action> var body: Body { get }
}

extension ComposedBoundingReducer {
    /// This feature's boundary dispatch, as a reducer to compose in `body`.
    public var coreReducer: TCA.Reduce<State, Action> {
        TCA.Reduce(unrecorded: { state, action in self.reduceCore(into: &state, action: action) })
    }

    /// A composed reducer is its body.
    public func reduce(into state: inout State, action: Action) -> TCA.Effect<Action> {
        body.reduce(into: &state, action: action)
    }
}
