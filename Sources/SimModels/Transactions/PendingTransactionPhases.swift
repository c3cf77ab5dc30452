/// The default namespace of pending-transaction phases, extended with `static let` constants.
///
/// Mirrors Player's `PendingTransactionPhases`: a string wrapper so that assets and plugins can
/// add phases without a shared enum.
public struct PendingTransactionPhases: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The phase's name.
    public var rawValue: String

    /// The phase called `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The phase's name.
    public var description: String { rawValue }

    /// The phase an input registers while it is being edited.
    public static let input = PendingTransactionPhases(rawValue: "input")
}
