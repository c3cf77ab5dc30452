import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTesting
import Testing

/// `explore(isolatedIn:)`: every schedule runs in a child of a `SimRun.main` executable (here the
/// built `simrun`), so a model that traps is a CRASH failure with its trace, and this test process
/// survives it (the in-process `explore` would die with it).
@Suite struct IsolatedExplorationTests {
    @Test func aModelThatTrapsIsACrashFailureAndTheTestProcessSurvives() throws {
        let directory = try makeTemporaryDirectory("isolated-explore")
        defer { try? FileManager.default.removeItem(at: directory) }
        let simrun = SimrunProcess.executable.path
        #expect(FileManager.default.isExecutableFile(atPath: simrun), "no simrun built at \(simrun)")
        var exploration: Exploration?
        withKnownIssue {
            exploration = explore(
                UnrulyCounter.scenario, variant: "crashing", strategy: "random", seeds: 6..<40,
                failureDirectory: directory.path, isolatedIn: simrun)
        }
        let failure = try #require(exploration?.failure)
        guard case .crashed(let message) = failure.verdict else {
            Issue.record("expected a crash, got \(failure.verdict)")
            return
        }
        #expect(message.contains("stale write"), "\(message)")
        #expect(failure.tracePath.hasPrefix(directory.path) && failure.replayCommand.contains(" replay "))
        #expect(failure.decisions.saved > 0)
        let replay = try SimrunProcess.run(["replay", failure.tracePath], in: directory)
        #expect(replay.status == 0 && replay.stdout.contains("identical — crashed at event"), "\(replay.stdout)")
    }

    @Test func aPassingExplorationRecordsNoIssue() throws {
        let directory = try makeTemporaryDirectory("isolated-explore-pass")
        defer { try? FileManager.default.removeItem(at: directory) }
        let exploration = explore(
            CounterRace.scenario, variant: "fixed", strategy: "random", seeds: 0..<8,
            failureDirectory: directory.path, isolatedIn: SimrunProcess.executable.path)
        #expect(exploration.failure == nil)
        #expect(exploration.schedules == 8)
    }

    @Test func anExecutableThatCannotRunIsAnIssueNotAPass() throws {
        withKnownIssue {
            let exploration = explore(
                CounterRace.scenario, variant: "fixed", seeds: 0..<2, isolatedIn: "/nonexistent/simrun")
            #expect(exploration.schedules == 0)
        }
    }
}
