import Testing

@testable import SimRunKit

/// Progress fit for logs: off a terminal nothing by default, a line per interval with --progress;
/// output styles decide what reaches stdout.
@Suite struct ConsoleTests {
    @Test func offATerminalProgressIsSilentUnlessAskedForThenEveryInterval() {
        let silent = Console(capturing: true)
        #expect(!silent.isInteractive)
        let start = ContinuousClock.now
        for second in 0..<30 { silent.progress("tick \(second)", at: start + .seconds(second)) }
        #expect(silent.capturedLines.isEmpty, "\(silent.capturedLines)")

        let logged = Console(capturing: true)
        logged.progressStyle = .periodic(.seconds(10))
        for tenth in 0..<300 { logged.progress("at \(tenth / 10)", at: start + .milliseconds(100 * tenth)) }
        #expect(logged.capturedLines == ["err: at 0", "err: at 10", "err: at 20"])

        let off = Console(capturing: true)
        off.progressStyle = .off
        off.progress("never", at: start)
        #expect(off.capturedLines.isEmpty)
    }

    @Test func outputStylesDecideWhatReachesStdout() {
        for style in [Console.OutputStyle.human, .quiet, .json] {
            let console = Console(capturing: true)
            console.outputStyle = style
            console.out("detail")
            console.verdict("verdict")
            console.json("{}")
            console.err("note")
            let expected: [String] =
                switch style {
                case .human: ["detail", "verdict", "err: note"]
                case .quiet: ["verdict", "err: note"]
                case .json: ["{}", "err: note"]
                }
            #expect(console.capturedLines == expected, "\(style)")
        }
    }

    @Test func aDumbTerminalGetsNoEscapeSequences() {
        #expect(!Console.drawsLiveLines(isTerminal: true, term: "dumb"))
        #expect(Console.drawsLiveLines(isTerminal: true, term: "xterm-256color"))
        #expect(Console.drawsLiveLines(isTerminal: true, term: nil))
        #expect(!Console.drawsLiveLines(isTerminal: false, term: "xterm"))
    }
}
