/// One key/value option of the run that produced a trace, e.g. `("variant-flag", "on")`.
public struct TraceOption: Sendable, Hashable {
    public var key: String
    public var value: String

    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}
