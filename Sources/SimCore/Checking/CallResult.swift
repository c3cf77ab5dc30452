/// What one call returned, compared with the result type's own `Equatable`: a value, or the error it
/// threw (a thrown error is a result like any other, so "throws `empty`" can be right or wrong too).
public struct CallResult: Equatable, Sendable, CustomStringConvertible {
    private enum Payload: @unchecked Sendable {
        case value(any Equatable)
        case error(any Error)
    }
    private let payload: Payload
    /// How the table and messages print it: the value's description, or `throws <error>`.
    public let description: String

    /// A returned value.
    public static func value<R: Equatable & Sendable>(_ value: R) -> CallResult {
        CallResult(payload: .value(value), description: String(describing: value))
    }

    /// A thrown error: equal to another thrown error of the same type that is equal to it (when the
    /// type is `Equatable`) or that prints the same (when it is not).
    public static func threw(_ error: any Error) -> CallResult {
        CallResult(payload: .error(error), description: "throws \(String(describing: error))")
    }

    /// True when the call returned normally.
    public var isValue: Bool {
        if case .value = payload { return true }
        return false
    }

    /// Equal values by their type's `==`; equal errors as `threw` says.
    public static func == (lhs: CallResult, rhs: CallResult) -> Bool {
        switch (lhs.payload, rhs.payload) {
        case (.value(let left), .value(let right)): return Self.equal(left, right)
        case (.error(let left), .error(let right)):
            guard type(of: left) == type(of: right) else { return false }
            if let left = left as? any Equatable { return Self.equal(left, right) }
            return lhs.description == rhs.description
        default: return false
        }
    }

    /// `left == right` by `left`'s own type's `==` (false when `right` is another type).
    private static func equal(_ left: any Equatable, _ right: Any) -> Bool {
        func open<T: Equatable>(_ left: T) -> Bool { (right as? T).map { $0 == left } ?? false }
        return open(left)
    }
}
