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
}
