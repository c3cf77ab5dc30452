import SimEngine
import SimTrace
import SystemPackage
import Synchronization

/// Results go to stdout, progress and errors to stderr.
///
/// What reaches stdout depends on the command's output style: every line (`human`), only the verdict
/// line (`quiet`), or only the one JSON document (`json`). Progress is a live line on a terminal; off
/// a terminal (CI logs) it is silent unless asked for, and then a plain line at most every 10 s.
public final class Console: Sendable {
    /// What a command prints on stdout.
    public enum OutputStyle: Sendable, Equatable {
        /// Every result line.
        case human
        /// Only the verdict line.
        case quiet
        /// Only one JSON object (the result document).
        case json
    }

    /// How progress lines are shown.
    public enum ProgressStyle: Sendable, Equatable {
        /// Rewritten in place on a terminal; nothing otherwise (the default).
        case automatic
        /// A plain line at most once per `interval` (`--progress`, for logs), live on a terminal.
        case periodic(Duration)
        /// Never.
        case off
    }

    private struct State {
        var live = false  // a live progress line is on screen
        var output = OutputStyle.human
        var command = ""  // the command printing, for the document of an interruption
        var fullTaskNames = false
        var progress = ProgressStyle.automatic
        var lastProgress: ContinuousClock.Instant?
        var stdoutError: Int32?  // the first failed or short write on stdout
    }

    private let state = Mutex(State())
    private let captured: CaptureBuffer?
    private let interactive: Bool

    /// A console on the process's stdout and stderr.
    public init() {
        captured = nil
        interactive = Self.liveTerminal()
    }

    /// A console that keeps what it would print (stdout lines, then `err:`-prefixed stderr lines
    /// interleaved in order), for tests of the command tree in-process.
    public init(capturing: Bool) {
        captured = capturing ? CaptureBuffer() : nil
        interactive = !capturing && Self.liveTerminal()
    }

    /// True when stderr is a terminal that can redraw a line: a `TERM=dumb` one (Emacs shells, some
    /// CI runners) gets plain lines, never escape sequences.
    static func liveTerminal() -> Bool {
        drawsLiveLines(isTerminal: isatty(2) == 1, term: getenv("TERM").map { String(cString: $0) })
    }

    /// Whether progress is redrawn in place (escape sequences) on this stderr.
    package static func drawsLiveLines(isTerminal: Bool, term: String?) -> Bool {
        isTerminal && term != "dumb"
    }

    /// Everything printed so far, when capturing.
    public var capturedLines: [String] { captured?.lines.withLock { $0 } ?? [] }

    /// What went to stdout, when capturing.
    public var capturedOutput: String {
        capturedLines.filter { !$0.hasPrefix("err: ") }.joined(separator: "\n")
    }

    /// The style of stdout from now on. In the json style on the process's own stdout, a signal that
    /// ends the command before it printed its document prints one for it (`verdict` `interrupted`,
    /// `partial` true): `--json` always prints its document.
    public var outputStyle: OutputStyle {
        get { state.withLock { $0.output } }
        set {
            state.withLock { state in
                state.output = newValue
                armInterruptedDocument(state)
            }
        }
    }

    /// Sets the style and the command together: a signal between two separate settings would find a
    /// document armed for neither (or none at all).
    package func begin(command: String, style: OutputStyle) {
        state.withLock { state in
            state.output = style
            state.command = command
            armInterruptedDocument(state)
        }
    }

    /// Task identities whole in tables and timelines (`--full-names`); short by default (`ShortTaskNames`).
    public var fullTaskNames: Bool {
        get { state.withLock { $0.fullTaskNames } }
        set { state.withLock { $0.fullTaskNames = newValue } }
    }

    /// `text` with its task identities as this console prints them (short unless `fullTaskNames`).
    public func taskNames(_ text: String) -> String {
        fullTaskNames ? text : ShortTaskNames.shorten(text)
    }

    /// The command whose output this is (`fuzz`), named by the document an interruption prints.
    public var command: String {
        get { state.withLock { $0.command } }
        set {
            state.withLock { state in
                state.command = newValue
                armInterruptedDocument(state)
            }
        }
    }

    /// Gives `Interruption` the document to print if a signal ends the command now.
    private func armInterruptedDocument(_ state: State) {
        guard captured == nil else { return }
        guard state.output == .json else { return Interruption.armDocument(nil) }
        Interruption.armDocument(Self.interruptedDocument(command: state.command))
    }

    /// The document of a command a signal ended before it printed its own.
    static func interruptedDocument(command: String) -> String {
        let members: [JSONValue.Member] = [
            .init("schema", .string(ResultDocument.schema)), .init("command", .string(command)),
            .init("verdict", .string("interrupted")), .init("exitCode", .int(Int64(ExitStatus.interrupted))),
            .init("interrupted", .bool(true)), .init("partial", .bool(true)),
            .init(
                "error",
                .string("interrupted by a signal before the command finished; what it found is not in this document")),
        ]
        return JSONValue.object(members).text
    }

    /// The style of progress lines from now on.
    public var progressStyle: ProgressStyle {
        get { state.withLock { $0.progress } }
        set { state.withLock { $0.progress = newValue } }
    }

    /// Writes all of `text` to `fd`; a failed or short write on stdout is kept in `state` (reported
    /// once the command ends: a result that did not reach its reader is never a success).
    private func write(_ fd: Int32, _ text: String, _ state: inout State) {
        if let captured {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            captured.lines.withLock { $0 += lines.map { fd == 2 ? "err: " + $0 : $0 } }
            return
        }
        // After a failure the rest of the output would be cut anyway: stop writing it.
        if fd == 1 && state.stdoutError != nil { return }
        // A signal is ending the process, which prints what an interruption prints: what the command
        // still says (an error from a child the ending stopped) is not its result.
        if Interruption.isEnding { return }
        var text = text
        let failure: Int32? = text.withUTF8 { buffer in
            do throws(Errno) {
                try SystemIO.writeAll(fd, UnsafeRawBufferPointer(buffer))
                return nil
            } catch {
                return error.rawValue
            }
        }
        if fd == 1, let failure { state.stdoutError = failure }
    }

    /// Why stdout could not be written (`No space left on device`), or nil while every write went
    /// through.
    public var outputFailure: String? {
        state.withLock { state in
            state.stdoutError.map { code in strerror(code).map { String(cString: $0) } ?? "errno \(code)" }
        }
    }

    /// Forgets a stdout failure (a console serving several command lines starts each afresh).
    public func resetOutputFailure() { state.withLock { $0.stdoutError = nil } }

    private func emit(_ fd: Int32, _ line: String, _ state: inout State) {
        if state.live {
            write(2, "\n", &state)
            state.live = false
        }
        write(fd, line + "\n", &state)
    }

    /// A result line on stdout (human style only).
    public func out(_ line: String) {
        state.withLock { state in
            guard state.output == .human else { return }
            emit(1, line, &state)
        }
    }

    /// The command's verdict line on stdout: printed in the human and quiet styles.
    public func verdict(_ line: String) {
        state.withLock { state in
            guard state.output != .json else { return }
            emit(1, line, &state)
        }
    }

    /// The command's JSON result document on stdout: printed in the json style only (and not when a
    /// signal ending the process already printed the interrupted one: one document, always).
    public func json(_ document: String) {
        state.withLock { state in
            guard state.output == .json else { return }
            if captured == nil && !Interruption.takeDocument() { return }
            emit(1, document, &state)
        }
    }

    /// A line on stderr: errors, notes, the campaign's opening line (every style).
    public func err(_ line: String) {
        state.withLock { state in emit(2, line, &state) }
    }

    /// True when stderr is a terminal (progress lines rewrite themselves).
    public var isInteractive: Bool { interactive }

    /// A progress line: rewritten in place on a terminal; off a terminal, a plain line at most once
    /// per interval with `--progress`, else nothing. `now` is a parameter so tests need no waiting.
    public func progress(_ line: String, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            switch state.progress {
            case .off:
                return
            case .automatic where !interactive:
                return
            case .periodic(let interval) where !interactive:
                if let last = state.lastProgress, now - last < interval { return }
                state.lastProgress = now
                emit(2, line, &state)
            case .automatic, .periodic:
                write(2, "\r\u{1B}[2K" + line, &state)
                state.live = true
            }
        }
    }

    /// Ends a live progress line.
    public func endProgress() {
        state.withLock { state in
            if state.live {
                write(2, "\n", &state)
                state.live = false
            }
        }
    }
}

/// Lines kept by a capturing console.
final class CaptureBuffer: Sendable {
    package let lines = Mutex<[String]>([])
}
