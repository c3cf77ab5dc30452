extension TCA {
    /// Identifies cancellable effects within one store (TCA keys them by the id's type and value).
    ///
    /// Cancellation ids live in the store that runs the effects, never in a global table, so parallel
    /// simulations cannot see each other's effects.
    public struct CancelID: Hashable, Sendable, CustomStringConvertible {
        /// The id's type and value, fully qualified: ids of different types never collide.
        public let key: String
        /// A short form for events: `CancelID.search`.
        public let description: String

        /// An id from any hashable value, e.g. a case of a private `enum CancelID { case search }`.
        public init(_ id: some Hashable & Sendable) {
            if let ready = id as? CancelID {
                self = ready
                return
            }
            key = String(reflecting: type(of: id)) + "." + String(describing: id)
            description = String(describing: type(of: id)) + "." + String(describing: id)
        }

        /// An id named by a string.
        public init(named name: String) {
            key = "String." + name
            description = name
        }
    }
}
