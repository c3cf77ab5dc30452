/// The exit codes of every simrun command (DESIGN.md §6).
public enum ExitStatus {
    public static let ok: Int32 = 0
    /// A bug was found, an oracle failed, or a replay diverged.
    public static let failure: Int32 = 1
    /// A replay on another variant could not follow a departure from `fifo` of the trace: the
    /// recorded race never happened there, so its verdict says nothing (neither pass nor fail).
    public static let inconclusive: Int32 = 2
    public static let usage: Int32 = 64
    public static let badTrace: Int32 = 65
    public static let missingInput: Int32 = 66
    /// Stopped by Ctrl-C or SIGTERM before the end, with nothing found (128 + SIGINT, as shells do).
    public static let interrupted: Int32 = 130
    /// Writing output failed.
    public static let cannotWrite: Int32 = 73
}

/// A command's failure with its exit code and one line to print.
public struct CommandFailure: Error, CustomStringConvertible {
    public var code: Int32
    public var message: String

    public init(_ code: Int32, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    package static func usage(_ message: String) -> CommandFailure { .init(ExitStatus.usage, message) }
}
