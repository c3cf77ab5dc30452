import SimEngine

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
    /// recorded race never happened there, so its verdict says nothing (neither pass nor fail). Also
    /// a campaign (`fuzz`, `merge`) whose runs all passed but used what simrun did not control (an
    /// invisible lock, a thread or run-loop work outside the run): the pass covers no order of those.
    public static let inconclusive: Int32 = 2
    /// The command line is wrong: an unknown option, scenario or variant, a malformed value.
    public static let usage: Int32 = 64
    /// A trace file cannot be read: damaged, truncated where it matters, not a trace, a future format.
    public static let badTrace: Int32 = 65
    /// An input file does not exist.
    public static let missingInput: Int32 = 66
    /// An output file or directory cannot be created or written.
    public static let cannotWrite: Int32 = 73
    /// Stopped by Ctrl-C, SIGTERM or SIGHUP (a closed terminal) before the end, with nothing found
    /// (128 + SIGINT, as shells report a Ctrl-C).
    public static let interrupted: Int32 = 130

    /// Every code with its meaning, in the order the help and the article list them.
    public static let table: [(code: Int32, meaning: String)] = [
        (ok, "ok: no bug found, replay identical, output written"),
        (failure, "bug found: an oracle failed, a run crashed, or a replay diverged"),
        (inconclusive, "inconclusive: replay not followed or cut short; uncontrolled work passed"),
        (usage, "usage: bad option, value, scenario or variant"),
        (badTrace, "bad trace: unreadable, damaged or foreign trace file"),
        (missingInput, "missing input: a trace file does not exist"),
        (cannotWrite, "cannot write: an output file, directory or stdout cannot be written"),
        (interrupted, "interrupted: Ctrl-C, SIGTERM or SIGHUP with nothing found"),
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

/// A command's failure: the engine's error, whose kind gives the exit code. Commands throw it as
/// `CommandFailure(ExitStatus.x, message)`; the engine's own errors arrive as they are.
public typealias CommandFailure = SimEngineError

extension SimEngineError {
    /// The process exit status for this failure (one of `ExitStatus`).
    public var code: Int32 { Self.code(for: kind) }

    /// The exit status of each kind: the one place the engine's kinds meet the exit-code table.
    public static func code(for kind: Kind) -> Int32 {
        switch kind {
        case .usage: ExitStatus.usage
        case .badTrace: ExitStatus.badTrace
        case .missingInput: ExitStatus.missingInput
        case .cannotWrite: ExitStatus.cannotWrite
        case .failed: ExitStatus.failure
        case .interrupted: ExitStatus.interrupted
        }
    }

    /// A failure with this exit code (one of `ExitStatus`; any other is a plain failure, 1).
    public init(_ code: Int32, _ message: String) {
        let kind = Kind.allCases.first { Self.code(for: $0) == code } ?? .failed
        self.init(kind, message)
    }
}

extension CampaignMerge {
    /// The exit status `fuzz` would give, and merge's own for what only merge can see: 1 when
    /// something failed, else 65 when seeds were run twice, 66 when seeds are missing, 130 when a
    /// shard was interrupted, 2 when it passed over work simrun did not control, 0 when the whole
    /// campaign ran and passed.
    public var exitCode: Int32 {
        switch status {
        case .failed: ExitStatus.failure
        case .overlapping: ExitStatus.badTrace
        case .missing: ExitStatus.missingInput
        case .interrupted: ExitStatus.interrupted
        case .inconclusive: ExitStatus.inconclusive
        case .passed: ExitStatus.ok
        }
    }
}

extension MergeError {
    /// The exit status for it: 66 when there is nothing to merge, else 65.
    public var exitCode: Int32 { kind == .missing ? ExitStatus.missingInput : ExitStatus.badTrace }
}
