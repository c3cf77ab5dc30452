import Foundation
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// `--version`, help and completion scripts name the program being run (simrun or a user's own).
@Suite struct HelpAndVersionTests {
    @Test func versionPrintsTheVersion() throws {
        let output = try SimrunProcess.run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout == SimRunVersion.current + "\n")
    }

    /// A user's executable names itself in help, usage and error messages (issue #12: its `--help`
    /// said `USAGE: simrun`): the name given to `SimRun.run`, and a built executable's own.
    @Test func helpNamesTheProgramBeingRun() throws {
        let (status, help) = simrun(["--help"], scenarios: [], programName: "shopsim")
        #expect(status == 0)
        #expect(help.contains("USAGE: shopsim"), "\(help)")
        #expect(!help.contains("USAGE: simrun"), "\(help)")
        #expect(simrun(["fuzz", "--help"], scenarios: [], programName: "shopsim").1.contains("USAGE: shopsim fuzz"))
        let unknown = simrun(["run", "no-such"], scenarios: [], programName: "shopsim")
        #expect(unknown.0 == 64)
        #expect(unknown.1.contains("shopsim: unknown scenario 'no-such'"), "\(unknown.1)")

        let example = SimrunProcess.executable.deletingLastPathComponent().appendingPathComponent("simrun-example")
        let root = try SimrunProcess.run(executable: example, ["--help"])
        #expect(root.status == 0)
        #expect(root.stdout.contains("USAGE: simrun-example <subcommand>"), "\(root.stdout)")
        #expect(root.stdout.contains("Exit codes:"))
        let completion = try SimrunProcess.run(executable: example, ["--generate-completion-script", "bash"])
        #expect(completion.status == 0)
        #expect(completion.stdout.contains("simrun-example"), "the script completes the user's program")
    }

    @Test func everyExitCodeIsInTheRootHelp() {
        let (status, help) = simrun(["--help"])
        #expect(status == 0)
        for entry in ExitStatus.table {
            #expect(help.contains("  \(entry.code)"), "code \(entry.code)")
            #expect(help.contains(entry.meaning), "\(entry.meaning)")
        }
        #expect(help.contains("--generate-completion-script"))
    }

    @Test func unknownCommandsAndHelpTopicsAreUsageErrorsWithASuggestion() throws {
        let help = try SimrunProcess.run(["help", "nosuch"])
        #expect(help.status == 64, "\(help.stderr)")
        #expect((help.stdout + help.stderr).contains("unknown command 'nosuch'"), "\(help.stderr)")
        let typo = try SimrunProcess.run(["fuz", "lost-input-navigation", "--seeds", "3"])
        #expect(typo.status == 64)
        #expect((typo.stdout + typo.stderr).contains("did you mean 'fuzz'?"), "\(typo.stderr)")
        #expect(try SimrunProcess.run(["help", "fuzz"]).status == 0, "help of a real command still works")
    }
}
