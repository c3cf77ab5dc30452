import SimEngine
import SimRunKit
import Testing

/// A user's executable names itself in help, usage and error messages (issue #12: its `--help` said
/// `USAGE: simrun`).
@Suite struct ProgramNameTests {
    @Test func helpUsageAndErrorsNameTheUsersProgram() {
        let console = Console(capturing: true)
        #expect(SimRun.run(arguments: ["--help"], scenarios: [], console: console, programName: "shopsim") == 0)
        let help = console.capturedLines.joined(separator: "\n")
        #expect(help.contains("USAGE: shopsim"), "\(help)")
        #expect(!help.contains("USAGE: simrun"), "\(help)")

        let fuzzHelp = Console(capturing: true)
        _ = SimRun.run(arguments: ["fuzz", "--help"], scenarios: [], console: fuzzHelp, programName: "shopsim")
        #expect(fuzzHelp.capturedLines.joined().contains("USAGE: shopsim fuzz"))

        let unknown = Console(capturing: true)
        let status = SimRun.run(arguments: ["run", "no-such"], scenarios: [], console: unknown, programName: "shopsim")
        #expect(status == 64)
        #expect(unknown.capturedLines.joined().contains("shopsim: unknown scenario 'no-such'"))
    }
}
