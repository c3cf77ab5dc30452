extension TCA {
    /// A case of an action enum: how to wrap a child action into it and to unwrap it again
    /// (what TCA's case key paths do; the model has no CasePaths dependency).
    ///
    /// ```swift
    /// let child = TCA.ActionCase<Parent.Action.InternalAction, Child.Action>(
    ///     embed: { .child($0) }, extract: { if case .child(let a) = $0 { a } else { nil } })
    /// ```
    public struct ActionCase<Root, Value>: Sendable {
        /// Wraps a value into the case.
        public let embed: @Sendable (Value) -> Root
        /// Unwraps the case, or nil for any other case.
        public let extract: @Sendable (Root) -> Value?

        /// A case from its two directions.
        public init(embed: @escaping @Sendable (Value) -> Root, extract: @escaping @Sendable (Root) -> Value?) {
            self.embed = embed
            self.extract = extract
        }

        /// This case followed by a case of its value.
        public func appending<Leaf>(_ next: ActionCase<Value, Leaf>) -> ActionCase<Root, Leaf> {
            let outer = self
            return ActionCase<Root, Leaf>(
                embed: { outer.embed(next.embed($0)) },
                extract: { outer.extract($0).flatMap(next.extract) })
        }
    }
}

extension TCA.ActionCase where Root: TCAFeatureAction, Value == Root.InternalAction {
    /// The `_internal` case of a feature action (where child features are usually scoped).
    public static var _internal: Self {
        Self(
            embed: { Root._internal($0) },
            extract: { action in
                if case ._internal(let inner)? = action.boundary { return inner }
                return nil
            })
    }
}
