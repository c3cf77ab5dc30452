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

    @Test func helpNamesTheProgramBeingRun() throws {
        let console = Console(capturing: true)
        let status = SimRun.run(
            arguments: ["fuzz", "--help"], scenarios: BuiltinScenarios.all, console: console, programName: "my-tool")
        #expect(status == 0)
        let help = console.capturedOutput
        #expect(help.contains("USAGE: my-tool fuzz"), "\(help)")
        #expect(!help.contains("USAGE: simrun"), "\(help)")

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
