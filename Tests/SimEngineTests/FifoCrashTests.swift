import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// Code that traps on the fifo schedule, the run every plan is sized by (issue #30): planning in a
/// child says so (`Isolation.Planning.trapped`), the campaign's finding is that crash
/// (`FindingCampaign.fifoCrash`), a run of any seed is recorded sealed up to the trap
/// (`IsolatedRecording`), and each trace replays as the same crash, whatever the strategy.
@Suite struct FifoCrashTests {
    static let strategies = [
        "fifo", "random", "pct", "delay", "dfs", "portfolio", "pos", "surw", "coverage", "nsurw", "rff",
    ]

    @Test(arguments: strategies) func codeThatTrapsOnFifoIsACrashFindingOfEveryStrategy(_ strategy: String) throws {
        let directory = try makeTemporaryDirectory("fifo-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let unplanned = try CrashFixtures.unplanned(variant: "crashing-always", strategy: strategy)
        let planning = try CrashFixtures.plan(unplanned)
        #expect(planning.plan == nil, "\(strategy): the fifo run traps")
        #expect(planning.trap?.contains("worker.a always traps") == true, "\(strategy): \(String(describing: planning.trap))")

        // The campaign's finding: the fifo crash, saved once under its finding name, in job worker.a/write#1.
        let found = directory.appendingPathComponent("found").path
        let finding = try FindingCampaign.fifoCrash(plan: unplanned, directory: found, launcher: SimrunChildren.launcher)
        #expect(finding.kind == .crash && finding.seed == 0)
        #expect(finding.recording?.crashed == true, "\(strategy)")
        #expect(finding.verdict.message.contains("worker.a always traps"), "\(finding.verdict)")
        let path = try #require(finding.path)
        #expect(path == found + "/unruly-counter-crashing-always-crashed.simtrace")
        let saved = try FileManager.default.contentsOfDirectory(atPath: found).filter { $0.hasSuffix("crashed.simtrace") }
        #expect(saved.count == 1, "\(strategy): \(saved)")
        #expect(try CrashShrink.runningJob(path: path) == "worker.a/write#1")
        let replay = try CrashFixtures.replay(path)
        #expect(replay.verdict == .identical, "\(strategy): \(replay.verdict)")
        #expect(replay.eventCount == 5 && replay.outcome.isCrash, "\(strategy): \(replay.eventCount) \(replay.outcome)")

        // A run of a seed (`run --out`): the plan unplanned, the run recorded sealed up to its trap.
        let plan = try CrashFixtures.runPlan(unplanned)
        for seed: UInt64 in strategy == "pct" || strategy == "random" ? [1, 3] : [1] {
            let trace = directory.appendingPathComponent("run-\(seed).simtrace").path
            let run = try CrashFixtures.record(plan, seed: seed, to: trace)
            #expect(run.crashed && run.verdict.isCrash, "\(strategy) seed \(seed): \(run.verdict)")
            let again = try CrashFixtures.replay(trace)
            #expect(again.verdict == .identical, "\(strategy) seed \(seed): \(again.verdict)")
        }
    }

    /// `--noise N` sizes its lanes by the fifo run: that run traps in the child that plans, so the
    /// trap is a finding, and a run traps before its first event.
    @Test func codeThatTrapsOnFifoUnderNoiseIsACrashFinding() throws {
        let directory = try makeTemporaryDirectory("fifo-crash-noise")
        defer { try? FileManager.default.removeItem(at: directory) }
        let unplanned = try CrashFixtures.unplanned(variant: "crashing-always", noise: 3)
        #expect(try CrashFixtures.plan(unplanned).trap != nil, "the fifo run that sizes the noise lanes traps")
        let found = directory.appendingPathComponent("found").path
        let finding = try FindingCampaign.fifoCrash(plan: unplanned, directory: found, launcher: SimrunChildren.launcher)
        #expect(finding.recording?.crashed == true)
        let saved = try FileManager.default.contentsOfDirectory(atPath: found).filter { $0.hasSuffix("crashed.simtrace") }
        #expect(saved.count == 1, "\(saved)")

        let trace = directory.appendingPathComponent("run.simtrace").path
        let run = try CrashFixtures.record(try CrashFixtures.runPlan(unplanned), seed: 1, to: trace)
        #expect(run.crashed, "\(run.verdict)")
        #expect(run.eventCount == 0, "the trap came in the fifo run that sizes the lanes: \(run.eventCount)")
        #expect(FileManager.default.fileExists(atPath: trace))
        let replay = try CrashFixtures.replay(trace)
        #expect(replay.verdict.isSuccess || replay.verdict.foundSomething, "judged: \(replay.verdict)")
        #expect(replay.outcome.isCrash, "\(replay.outcome)")
    }
}
