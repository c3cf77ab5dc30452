extension TCA {
    /// A child view's handle on part of a store, as TCA's `store.scope(state:action:)`: it reads the
    /// child's state out of the root's state and sends child actions wrapped in the root's action
    /// case, so one store (the root) processes everything, in its FIFO order, on `main`.
    ///
    /// For an optional child (an `ifLet`), `state` is nil once the parent dismissed it; an action
    /// sent through the handle then reaches the root anyway and the `ifLet` drops it (TCA reports
    /// "received a child action when child state was nil").
    ///
    /// `@unchecked Sendable`: like its root, it is only touched on the simulation's one thread.
    public final class ScopedStore<Root: TCAReducer, ChildState, ChildAction: Sendable>: @unchecked Sendable
    where Root.State: Equatable {
        /// The store that processes the child's actions.
        public let root: Store<Root>
        private let toChildState: (Root.State) -> ChildState?
        private let childCase: ActionCase<Root.Action, ChildAction>

        init(
            root: Store<Root>, state toChildState: @escaping (Root.State) -> ChildState?,
            action childCase: ActionCase<Root.Action, ChildAction>
        ) {
            self.root = root
            self.toChildState = toChildState
            self.childCase = childCase
        }

        /// The child's state as the root holds it now (nil when an optional child is dismissed).
        public var state: ChildState? { toChildState(root.state) }

        /// Sends a child action through the root (from a `main`-lane job, as the root requires).
        @discardableResult
        public func send(_ action: ChildAction) -> TCA.StoreTask { root.send(childCase.embed(action)) }

        /// Calls `observer` with the child's state after each batch the root processes.
        public func observe(_ observer: @escaping (ChildState?) -> Void) {
            let toChildState = self.toChildState
            root.observe { observer(toChildState($0)) }
        }
    }
}

extension TCA.Store {
    /// A handle for a child view: `state` picks the child's state (nil for a dismissed optional
    /// child), `action` the case that wraps the child's actions (TCA's `store.scope(state:action:)`).
    public func scope<ChildState, ChildAction: Sendable>(
        state toChildState: @escaping (State) -> ChildState?, action childCase: TCA.ActionCase<Action, ChildAction>
    ) -> TCA.ScopedStore<R, ChildState, ChildAction> {
        TCA.ScopedStore(root: self, state: toChildState, action: childCase)
    }
}
