import Foundation
import SimTestSupport
import Testing

/// `simrun run`: the seed a campaign reports fails again with `run` as printed (run and fuzz share
/// one default strategy, which its help names).
@Suite struct RunCommandTests {
    @Test func theSeedFuzzReportsFailsAgainWithRunAsPrinted() throws {
        let run = try SimrunProcess.run(["run", "lost-input-navigation", "--seed", "\(LostInputFixture.seed)"])
        #expect(run.status == 1, "run and fuzz share one default strategy: \(run.stdout)\(run.stderr)")
        let help = try SimrunProcess.run(["run", "--help"])
        #expect(help.stdout.contains("default: pct:depth=3"), "\(help.stdout)")
    }
}
