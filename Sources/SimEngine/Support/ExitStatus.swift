/// The exit codes of every simrun command: one table, shown by `--help` and the article "Exit codes and the JSON schema".
///
/// The numbers follow BSD's `sysexits.h` where one fits (64 usage, 65 data, 66 no input, 73 cannot
/// create) so that scripts and CI can tell a bug found (1) from a tool that could not do its job.
public enum ExitStatus {
    /// Done; no bug found, the replay matched, the trace was written.
    public static let ok: Int32 = 0
    /// A bug was found, an oracle failed, or a replay diverged.
    public static let failure: Int32 = 1
    /// A replay on another variant could not follow a departure from `fifo` of the trace: the
    /// recorded race never happened there, so its verdict says nothing (neither pass nor fail).
    public static let inconclusive: Int32 = 2
    /// The command line is wrong: an unknown option, scenario or variant, a malformed value.
    public static let usage: Int32 = 64
    /// A trace file cannot be read: damaged, truncated where it matters, not a trace, a future format.
    public static let badTrace: Int32 = 65
    /// An input file does not exist.
    public static let missingInput: Int32 = 66
    /// An output file or directory cannot be created or written.
    public static let cannotWrite: Int32 = 73
    /// Stopped by Ctrl-C or SIGTERM before the end, with nothing found (128 + SIGINT, as shells do).
    public static let interrupted: Int32 = 130

    /// Every code with its meaning, in the order the help and the article list them.
    public static let table: [(code: Int32, meaning: String)] = [
        (ok, "ok: no bug found, replay identical, output written"),
        (failure, "bug found: an oracle failed, a run crashed, or a replay diverged"),
        (inconclusive, "inconclusive replay: a non-fifo decision unfollowed, or a trace cut short"),
        (usage, "usage: bad option, value, scenario or variant"),
        (badTrace, "bad trace: unreadable, damaged or foreign trace file"),
        (missingInput, "missing input: a trace file does not exist"),
        (cannotWrite, "cannot write: an output file, directory or stdout cannot be written"),
        (interrupted, "interrupted: Ctrl-C or SIGTERM with nothing found"),
    ]

    /// The table as help text: `Exit codes: 0 ok: …; 1 bug found: …`, one code a line.
    public static var helpText: String {
        "Exit codes:\n" + table.map { "  \($0.code)".padded(to: 6) + $0.meaning }.joined(separator: "\n")
    }

    /// The help lines for only these codes (a command's own discussion).
    public static func helpText(for codes: [Int32]) -> String {
        "Exit codes:\n"
            + table.filter { codes.contains($0.code) }.map { "  \($0.code)".padded(to: 6) + $0.meaning }
            .joined(separator: "\n")
    }
}

extension String {
    fileprivate func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

/// A command's failure with its exit code and one line to print.
public struct CommandFailure: Error, CustomStringConvertible {
    /// The process exit status (one of `ExitStatus`).
    public var code: Int32
    /// One line saying what went wrong and, where it helps, what to do.
    public var message: String

    /// A failure with this exit code and message.
    public init(_ code: Int32, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    package static func usage(_ message: String) -> CommandFailure { .init(ExitStatus.usage, message) }
}
