import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// A crash trace shrinks with each candidate schedule in a child of its own
/// (`TraceShrink.shrink(_:footer:plan:to:isolation:)`), and the shrunk trace replays as the same
/// crash, in the same job.
@Suite struct CrashShrinkTests {
    static func shrink(_ path: String, to out: String) throws -> ShrinkReport? {
        let input = try TraceInput(path: path)
        let footer = try #require(input.footer)
        let plan = try input.plan(in: CrashFixtures.catalog)
        switch try TraceShrink.shrink(input, footer: footer, plan: plan, to: out, isolation: SimrunChildren.isolation) {
        case .shrunk(let report): return report
        case let other:
            Issue.record("\(path) did not shrink: \(other)")
            return nil
        }
    }

    @Test func theCommittedBlueprintCrashShrinksAndReplaysAsTheSameCrash() throws {
        let directory = try makeTemporaryDirectory("crash-shrink")
        defer { try? FileManager.default.removeItem(at: directory) }
        let shrunk = directory.appendingPathComponent("b.simtrace").path
        let report = try #require(try Self.shrink(CrashFixtures.crashTrace, to: shrunk))
        #expect(report.verdict.isCrash, "\(report.verdict)")
        let replay = try CrashFixtures.replay(shrunk)
        #expect(replay.verdict == .identical, "\(replay.verdict)")
        #expect(replay.outcome.message.contains("Reentrant updates are not supported"), "\(replay.outcome)")
        #expect(try CrashShrink.runningJob(path: shrunk) == "main/view.layout#2")
    }

    /// Seed 15 of random under 3 noise lanes traps with 7 non-fifo decisions, most of them noise:
    /// those go back to fifo, and the crash stays the same (the stale write, in job worker.a/write#1).
    @Test func aCrashUnderNoiseShrinksItsNoiseAway() throws {
        let directory = try makeTemporaryDirectory("crash-shrink")
        defer { try? FileManager.default.removeItem(at: directory) }
        let noisy = directory.appendingPathComponent("n.simtrace").path
        let plan = try CrashFixtures.runPlan(try CrashFixtures.unplanned(variant: "crashing", strategy: "random", noise: 3))
        let run = try CrashFixtures.record(plan, seed: 15, to: noisy)
        #expect(run.crashed, "\(run.verdict)")
        let small = directory.appendingPathComponent("n-small.simtrace").path
        let report = try #require(try Self.shrink(noisy, to: small))
        #expect(report.before.nonFifo == 7 && report.after.nonFifo == 3, "\(report.line)")
        #expect(report.line.contains("non-fifo decisions 7 → 3"), "\(report.line)")
        let replay = try CrashFixtures.replay(small)
        #expect(replay.verdict == .identical, "\(replay.verdict)")
        #expect(replay.outcome.message.contains("stale write"), "\(replay.outcome)")
        #expect(try CrashShrink.runningJob(path: small) == "worker.a/write#1")
    }
}
