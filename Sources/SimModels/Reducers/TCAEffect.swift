extension TCA {
    /// Work a reducer asks the store to do after it returns: nothing, an action, async work, or a
    /// composition of those, optionally cancellable by id.
    ///
    /// The store interprets effects as TCA's `RootCore` does: `.send` and `.cancel` take effect
    /// synchronously while the store is still processing (a sent action is buffered and processed after
    /// the actions already queued); `.run` becomes an async task that starts later, as a job of its own.
    public struct Effect<Action: Sendable>: Sendable {
        indirect enum Operation: Sendable {
            case none
            case send(Action)
            case run(name: String, operation: @Sendable (Send<Action>) async throws -> Void)
            case merge([Effect<Action>])
            case concatenate([Effect<Action>])
            case cancellable(Effect<Action>, id: CancelID, cancelInFlight: Bool)
            case cancel(CancelID)
        }

        let operation: Operation

        init(_ operation: Operation) { self.operation = operation }

        /// No work.
        public static var none: Self { Self(.none) }

        /// Sends `action` back into the store once the current action is processed, before any job runs.
        public static func send(_ action: Action) -> Self { Self(.send(action)) }

        /// Async work, run as a task on the simulation's executor after the store's `send` returns. It may
        /// sleep on the simulation's clock and send actions back. A `CancellationError` ends it quietly;
        /// any other error is a failure of the run (TCA reports unhandled errors as issues).
        public static func run(
            name: String = "run", _ operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void
        ) -> Self {
            Self(.run(name: name, operation: operation))
        }

        /// Effects that run concurrently: the order in which they start is not fixed (a decision).
        public static func merge(_ effects: Self...) -> Self { merge(effects) }

        /// Effects that run concurrently: the order in which they start is not fixed (a decision).
        public static func merge(_ effects: [Self]) -> Self {
            var flat: [Self] = []
            for effect in effects {
                switch effect.operation {
                case .none: continue
                case .merge(let children): flat.append(contentsOf: children)
                default: flat.append(effect)
                }
            }
            if flat.isEmpty { return .none }
            if flat.count == 1 { return flat[0] }
            return Self(.merge(flat))
        }

        /// Effects that run one after another: each starts when the previous one has finished.
        public static func concatenate(_ effects: Self...) -> Self { concatenate(effects) }

        /// Effects that run one after another: each starts when the previous one has finished.
        public static func concatenate(_ effects: [Self]) -> Self {
            let kept = effects.filter { if case .none = $0.operation { false } else { true } }
            if kept.isEmpty { return .none }
            if kept.count == 1 { return kept[0] }
            return Self(.concatenate(kept))
        }

        /// Cancels the effects registered under `id` now, while the store processes this action. An effect
        /// whose task has not started yet is not registered yet, and is missed.
        public static func cancel(id: some Hashable & Sendable) -> Self { Self(.cancel(CancelID(id))) }

        /// Makes this effect cancellable by `id`. It registers when its task starts (TCA's
        /// `withTaskCancellation` runs inside the effect), not when the reducer returns it: a `.cancel(id:)`
        /// processed before that misses it. With `cancelInFlight`, starting cancels the effects registered
        /// under `id` at that moment.
        public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
            if case .none = operation { return .none }
            return Self(.cancellable(self, id: CancelID(id), cancelInFlight: cancelInFlight))
        }

        /// The same work, sending `transform(action)` instead of each action (how scoping lifts child effects).
        public func map<Other: Sendable>(_ transform: @escaping @Sendable (Action) -> Other) -> Effect<Other> {
            switch operation {
            case .none:
                return .none
            case .send(let action):
                return .send(transform(action))
            case .run(let name, let body):
                return .run(name: name) { send in try await body(Send { await send(transform($0)) }) }
            case .merge(let effects):
                return Effect<Other>(.merge(effects.map { $0.map(transform) }))
            case .concatenate(let effects):
                return Effect<Other>(.concatenate(effects.map { $0.map(transform) }))
            case .cancellable(let inner, let id, let cancelInFlight):
                return Effect<Other>(.cancellable(inner.map(transform), id: id, cancelInFlight: cancelInFlight))
            case .cancel(let id):
                return Effect<Other>(.cancel(id))
            }
        }

        /// True when the effect finishes while the store is still processing (no `.run` inside).
        var isSynchronous: Bool {
            switch operation {
            case .none, .send, .cancel: true
            case .run: false
            case .merge(let effects), .concatenate(let effects): effects.allSatisfy(\.isSynchronous)
            case .cancellable(let inner, _, _): inner.isSynchronous
            }
        }

        /// The ids this effect will register under once its task reaches them, in tree order.
        var cancellableIDs: [CancelID] {
            switch operation {
            case .none, .send, .cancel, .run: []
            case .merge(let effects), .concatenate(let effects): effects.flatMap(\.cancellableIDs)
            case .cancellable(let inner, let id, _): [id] + inner.cancellableIDs
            }
        }

        /// A name for the effect's task lane: the name of its first `.run`.
        var taskName: String {
            switch operation {
            case .run(let name, _): name
            case .merge(let effects), .concatenate(let effects):
                effects.first(where: { !$0.isSynchronous })?.taskName ?? "effect"
            case .cancellable(let inner, _, _): inner.taskName
            case .none, .send, .cancel: "effect"
            }
        }
    }
}
