extension TCA {
    /// What `Store.send` returns: the tasks of the effects that send started, and — as TCA's
    /// `RootCore` appends the task each effect's own `send` returns to the list of the send that
    /// started it — the effects of the actions those effects sent, and so on down the tree.
    ///
    /// Cancelling it cancels the whole tree as it is then (pointfreeco/swift-composable-architecture
    /// `Sources/ComposableArchitecture/Core.swift`: the returned task's cancellation handler cancels
    /// every task in that list). PR #3499 pins this with a test marked as a known issue: "Cancelling
    /// the root effect should not cancel the child effects" (issue #3497). With the store's
    /// `taskTree: .rootEffectsOnly`, the returned task holds only the effects of the actions that send
    /// itself processed, which is what that known issue expects.
    ///
    /// `@unchecked Sendable`: touched only on the simulation's one thread.
    public final class StoreTask: @unchecked Sendable {
        private enum Entry {
            case task(Task<Void, Never>)
            case tree(StoreTask)
        }
        private var entries: [Entry] = []

        /// True once `cancel()` was called.
        public private(set) var isCancelled = false

        init() {}

        /// How many effect tasks the tree holds now (counting those of nested sends).
        public var effectCount: Int {
            entries.reduce(0) { count, entry in
                switch entry {
                case .task: count + 1
                case .tree(let tree): count + tree.effectCount
                }
            }
        }

        func append(_ task: Task<Void, Never>) { entries.append(.task(task)) }

        func append(_ tree: StoreTask) { entries.append(.tree(tree)) }

        /// Cancels every effect task in the tree now (SwiftUI's `.task` does this when the view disappears).
        public func cancel() {
            isCancelled = true
            for entry in entries {
                switch entry {
                case .task(let task): task.cancel()
                case .tree(let tree): tree.cancel()
                }
            }
        }

        /// Waits until every effect in the tree has finished, including effects added while waiting
        /// (TCA's `StoreTask.finish()`).
        public func finish() async {
            var index = 0
            while index < entries.count {
                switch entries[index] {
                case .task(let task): await task.value
                case .tree(let tree): await tree.finish()
                }
                index += 1
            }
        }
    }

    /// Which effects the task `Store.send` returns holds.
    public enum TaskTree: String, Sendable {
        /// What TCA does: also the effects of actions sent by those effects, transitively (issue #3497).
        case includesSentActions
        /// What PR #3499's known issue expects: only the effects of the actions that send processed.
        case rootEffectsOnly
    }
}
