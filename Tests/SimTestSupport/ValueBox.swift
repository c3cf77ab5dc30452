import SimCore

/// A mutable box that closures in a simulation can write and a test can read afterwards.
public final class ValueBox<Value>: @unchecked Sendable {
    public var value: Value
    public init(_ value: Value) { self.value = value }
}
