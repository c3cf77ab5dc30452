import SimCore

extension TCA {
    /// The store a reducer runs in, so that reducers deep in a composition (a `Scope`, an `ifLet`, a
    /// boundary dispatch) can record events without threading a parameter through `reduce`.
    ///
    /// It is bound with a task-local value for the duration of one `reduce` call, as TCA binds its
    /// dependencies: a scoped binding, not global mutable state, so parallel simulations on other
    /// threads never see it. Outside a store it is nil and reducers record nothing.
    public final class ReduceContext: @unchecked Sendable {
        // @unchecked: holds the simulation, which is confined to its one thread (see `Simulation`).
        /// The simulation the store runs in.
        public unowned let simulation: Simulation
        /// The store's name (the subject of its events).
        public let storeName: String
        /// Child actions dropped because their child state was nil (TCA reports each as an issue:
        /// "An 'ifLet' … received a child action when child state was 'nil'").
        public internal(set) var droppedActions = 0

        init(simulation: Simulation, storeName: String) {
            self.simulation = simulation
            self.storeName = storeName
        }

        /// The context of the store whose reducer is running on this thread, if any.
        @TaskLocal public static var current: ReduceContext?

        /// Records `reducer.reduce` for `action` handled by `reducer`, with its boundary kind (nothing
        /// outside a store's reducer run).
        public static func recordReduce(_ reducer: String, _ action: Any) {
            guard let context = current else { return }
            context.simulation.emit(
                "reducer.reduce", reducer, ["kind": .text(TCA.kind(of: action)), "action": .text(TCA.describe(action))])
        }

        /// Records `reducer.drop`: a child action that found no child state, so a hand-written
        /// composition reports what it dropped as `ifLet` does (nothing outside a store's reducer run).
        public static func recordDrop(_ reducer: String, _ action: Any, reason: String) {
            guard let context = current else { return }
            context.droppedActions += 1
            context.simulation.emit(
                "reducer.drop", reducer, ["action": .text(TCA.describe(action)), "reason": .text(reason)])
        }
    }
}
