extension TCA {
    /// A reducer from a closure, or any reducer with its type erased.
    public struct Reduce<State, Action: Sendable>: TCAReducer {
        let body: (inout State, Action) -> Effect<Action>

        /// A reducer from a closure; records `reducer.reduce` under `name` for each action.
        public init(_ name: String = "Reduce", _ reduce: @escaping (inout State, Action) -> Effect<Action>) {
            body = { state, action in
                ReduceContext.recordReduce(name, action)
                return reduce(&state, action)
            }
        }

        /// A reducer from a closure that records nothing of its own.
        init(unrecorded reduce: @escaping (inout State, Action) -> Effect<Action>) { body = reduce }

        /// Erases the type of `reducer`; records nothing of its own.
        public init<R: TCAReducer>(_ reducer: R) where R.State == State, R.Action == Action {
            body = { state, action in reducer.reduce(into: &state, action: action) }
        }

        /// Runs the closure.
        public func reduce(into state: inout State, action: Action) -> Effect<Action> {
            body(&state, action)
        }
    }

    /// Reducers run one after another on the same state; their effects are merged (TCA's
    /// `CombineReducers` and reducer builder blocks).
    public struct CombineReducers<State, Action: Sendable>: TCAReducer {
        let reducers: [Reduce<State, Action>]

        /// Combines reducers, run in this order.
        public init(_ reducers: [Reduce<State, Action>]) { self.reducers = reducers }

        /// Combines the reducers built by the closure.
        public init(@ReducerBuilder<State, Action> _ build: () -> CombineReducers<State, Action>) {
            self = build()
        }

        /// Runs every reducer in order and merges their effects.
        public func reduce(into state: inout State, action: Action) -> Effect<Action> {
            var effects: [Effect<Action>] = []
            effects.reserveCapacity(reducers.count)
            for reducer in reducers { effects.append(reducer.reduce(into: &state, action: action)) }
            return .merge(effects)
        }
    }

    /// Builds a `CombineReducers` from a block of reducers, as TCA's `@ReducerBuilder` does.
    @resultBuilder
    public enum ReducerBuilder<State, Action: Sendable> {
        /// One reducer of the block.
        public static func buildExpression<R: TCAReducer>(_ reducer: R) -> Reduce<State, Action>
        where R.State == State, R.Action == Action {
            Reduce(reducer)
        }

        /// The block, in order.
        public static func buildBlock(_ reducers: Reduce<State, Action>...) -> CombineReducers<State, Action> {
            CombineReducers(reducers)
        }
    }
}
