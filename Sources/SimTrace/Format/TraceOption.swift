/// One key/value option of the run that produced a trace, e.g. `("variant-flag", "on")`.
public struct TraceOption: Sendable, Hashable {
    /// The option's name.
    public var key: String
    /// The option's value, as text.
    public var value: String

    /// An option `key = value`.
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}
