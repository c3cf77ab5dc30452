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
        /// Whether a write through a binding is dropped while the child state is nil (TCA since
        /// PR #1879: `IfLetStore` filters them; today `IfLetCore.send` returns early when
        /// `BindingLocal.isActive && isInvalid`, pointfreeco/swift-composable-architecture
        /// `Sources/ComposableArchitecture/Core.swift`).
        public let ignoresBindingWritesToNilState: Bool

        init(
            root: Store<Root>, state toChildState: @escaping (Root.State) -> ChildState?,
            action childCase: ActionCase<Root.Action, ChildAction>, ignoresBindingWritesToNilState: Bool
        ) {
            self.root = root
            self.toChildState = toChildState
            self.childCase = childCase
            self.ignoresBindingWritesToNilState = ignoresBindingWritesToNilState
        }

        /// The child's state as the root holds it now (nil when an optional child is dismissed).
        public var state: ChildState? { toChildState(root.state) }

        /// Sends a child action through the root (from a `main`-lane job, as the root requires).
        @discardableResult
        public func send(_ action: ChildAction) -> TCA.StoreTask { root.send(childCase.embed(action)) }

        /// A write through a SwiftUI binding derived from this handle (a text field's `$store.text`):
        /// sent like `send`, except that, with `ignoresBindingWritesToNilState`, a write arriving
        /// after the child state became nil is dropped here and never reaches the root (SwiftUI
        /// writes bindings of a view that is being dismissed: issue #625).
        public func sendBinding(_ action: ChildAction) {
            if ignoresBindingWritesToNilState, state == nil {
                root.simulation.emit(
                    "store.ignoreBinding", root.name,
                    ["action": .text(TCA.describe(action)), "reason": "child state is nil"])
                return
            }
            send(action)
        }

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
    /// `ignoresBindingWritesToNilState: false` models TCA before PR #1879.
    public func scope<ChildState, ChildAction: Sendable>(
        state toChildState: @escaping (State) -> ChildState?, action childCase: TCA.ActionCase<Action, ChildAction>,
        ignoresBindingWritesToNilState: Bool = true
    ) -> TCA.ScopedStore<R, ChildState, ChildAction> {
        TCA.ScopedStore(
            root: self, state: toChildState, action: childCase,
            ignoresBindingWritesToNilState: ignoresBindingWritesToNilState)
    }
}
