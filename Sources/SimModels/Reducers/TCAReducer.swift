/// A reducer: evolves state for an action and returns the effect to run (TCA's `Reducer`).
///
/// Reducers are pure functions of their input apart from the events they record through
/// `TCA.ReduceContext` while a store runs them.
public protocol TCAReducer<State, Action>: SendableMetatype {
    /// The state the reducer evolves.
    associatedtype State
    /// The actions it handles.
    associatedtype Action: Sendable

    /// Evolves `state` for `action` and returns the work to do afterwards.
    func reduce(into state: inout State, action: Action) -> TCA.Effect<Action>
}
