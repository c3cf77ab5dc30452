/// What an operation without a result returns: every such return is equal to every other.
public struct Returned: Equatable, Sendable, CustomStringConvertible {
    /// A return.
    public init() {}
    /// `()`.
    public var description: String { "()" }
}
