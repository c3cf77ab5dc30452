/// What went wrong in the engine, by kind, with one line that says what and, where it helps, what
/// to do. The engine speaks no exit codes: SimRunKit maps each kind to its code (`ExitStatus`), and
/// SimTesting turns the message into a test issue.
public struct SimEngineError: Error, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        /// The request is wrong: an unknown scenario, variant or strategy, a malformed value.
        case usage
        /// A trace file cannot be read: damaged, truncated where it matters, foreign, a future format.
        case badTrace
        /// An input file does not exist (or a campaign's seeds are missing).
        case missingInput
        /// An output file or directory cannot be created or written.
        case cannotWrite
        /// The work could not be done for another reason (a worker died before its first seed, a
        /// re-run did not reach its run).
        case failed
        /// Stopped by Ctrl-C or SIGTERM.
        case interrupted
    }

    /// What kind of failure.
    public var kind: Kind
    /// One line saying what went wrong and, where it helps, what to do.
    public var message: String

    /// A failure of this kind with this message.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// A usage failure.
    package static func usage(_ message: String) -> SimEngineError { .init(.usage, message) }
}
