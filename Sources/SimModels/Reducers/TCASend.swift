extension TCA {
    /// What a `.run` effect calls to send actions back into its store: `await send(.response(data))`.
    ///
    /// As in TCA, the action reaches the store on the `main` lane (TCA's `Send` is `@MainActor`), and an
    /// effect that has been cancelled by then sends nothing.
    public struct Send<Action: Sendable>: Sendable {
        let deliver: @Sendable (Action) async -> Void

        /// A send that hands each action to `deliver` (stores make these; tests may too).
        public init(_ deliver: @escaping @Sendable (Action) async -> Void) {
            self.deliver = deliver
        }

        /// Sends `action` to the store; returns once the store has processed it (or dropped it).
        public func callAsFunction(_ action: Action) async {
            await deliver(action)
        }
    }
}
