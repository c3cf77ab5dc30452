import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// `FindingCampaign` over code that traps on some schedules, its runs in children of `simrun`:
/// every strategy's campaign ends with a result (a trap ends a child, never the host), a crash is a
/// finding with its trace (shrunk, explained, replaying as the same crash), and the determinism
/// check compares seeds that trap like any other.
@Suite struct CrashCampaignTests {
    static func campaign(
        _ unplanned: RunPlan.Descriptor, seeds: Range<UInt64>, keepGoing: Bool = false, into directory: String
    ) throws -> FindingCampaign.Result {
        let plan = try #require(try CrashFixtures.plan(unplanned).plan, "the fifo run does not trap")
        return try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: seeds, jobs: 1, keepGoing: keepGoing),
            options: .init(directory: directory, shrink: true, isolation: SimrunChildren.isolation)
        ).run()
    }

    static func crash(_ result: FindingCampaign.Result) -> SavedFinding? {
        result.findings.first { $0.kind == .crash }
    }

    /// An in-order strategy runs its campaign in one process: the trap ends it, and the crash is its
    /// finding, saved and replaying as the same crash.
    @Test(arguments: ["surw", "coverage", "dfs:preemptions=3"])
    func anInOrderCampaignThatTrapsEndsWithTheCrashAndItsTrace(_ strategy: String) throws {
        let directory = try makeTemporaryDirectory("crash-campaign")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.campaign(
            try CrashFixtures.unplanned("blueprint-reentrant-update-crash", variant: "buggy", strategy: strategy),
            seeds: 0..<200, into: directory.path)
        let crash = try #require(Self.crash(result), "\(strategy): \(result.findings.map(\.kind))")
        let path = try #require(crash.path)
        #expect(path == directory.path + "/blueprint-reentrant-update-crash-buggy-crashed.simtrace")
        #expect(try CrashFixtures.replay(path).verdict == .identical)
    }

    /// Random under 3 noise lanes, going on past findings: the crash at seed 7 is shrunk (its noise
    /// departures back to fifo) and replays as the same crash.
    @Test func aCrashFindingIsShrunk() throws {
        let directory = try makeTemporaryDirectory("crash-campaign")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.campaign(
            try CrashFixtures.unplanned(variant: "crashing", strategy: "random", noise: 3), seeds: 0..<30,
            keepGoing: true, into: directory.path)
        let crash = try #require(Self.crash(result), "\(result.findings.map(\.kind))")
        #expect(crash.seed == 7)
        guard case .shrunk(let report)? = crash.shrink else {
            Issue.record("the crash finding is shrunk: \(String(describing: crash.shrink))")
            return
        }
        #expect(report.line.contains("non-fifo decisions 6 → 5"), "\(report.line)")
        #expect(crash.path == directory.path + "/unruly-counter-crashing-crashed.simtrace")
        #expect(try CrashFixtures.replay(try #require(crash.path)).verdict == .identical)
    }

    @Test func codeThatTrapsOnSomeSchedulesIsFoundExplainedAndShrunk() throws {
        let directory = try makeTemporaryDirectory("crash-campaign")
        defer { try? FileManager.default.removeItem(at: directory) }
        for strategy in FifoCrashTests.strategies {
            // Ends with a result whatever the runs do: a trap ends a child, never this process.
            _ = try Self.campaign(
                try CrashFixtures.unplanned(variant: "crashing", strategy: strategy), seeds: 0..<6,
                into: directory.appendingPathComponent(strategy).path)
        }
        let result = try Self.campaign(
            try CrashFixtures.unplanned(variant: "crashing", strategy: "random"), seeds: 0..<40, keepGoing: true,
            into: directory.appendingPathComponent("keep-going").path)
        let crash = try #require(Self.crash(result)?.path, "\(result.findings.map(\.kind))")
        #expect(FileManager.default.fileExists(atPath: crash))

        let input = try TraceInput(path: crash)
        let footer = try #require(input.footer)
        let explanation = try Explainer(
            plan: try input.plan(in: CrashFixtures.catalog), input: input, target: FailureSignature(footer.verdict),
            runs: 3, jobs: 1
        ).explain(isolation: SimrunChildren.isolation)
        #expect(explanation.runs == 3 && explanation.rows.count == input.tape.count)

        let shrunk = directory.appendingPathComponent("shrunk.simtrace").path
        _ = try #require(try CrashShrinkTests.shrink(crash, to: shrunk))
        let replay = try CrashFixtures.replay(shrunk)
        #expect(replay.verdict == .identical, "\(replay.verdict)")
        #expect(replay.outcome.message.contains("stale"), "the same trap: \(replay.outcome)")
    }

    /// `--check-determinism` over seeds that trap: a seed trapping the same way in both processes is
    /// a deterministic crash, not a check cut short, and the seeds after it are still compared.
    @Test func aDeterminismCheckComparesSeedsThatTrap() throws {
        let directory = try makeTemporaryDirectory("crash-campaign")
        defer { try? FileManager.default.removeItem(at: directory) }
        let unplanned = try CrashFixtures.unplanned(variant: "crashing", strategy: "random")
        let result = try Self.campaign(unplanned, seeds: 0..<40, keepGoing: true, into: directory.path)
        #expect(Self.crash(result) != nil, "\(result.findings.map(\.kind))")
        let plan = try #require(try CrashFixtures.plan(unplanned).plan)
        let report = try DeterminismCampaign(
            recording: IsolatedRecording(plan: try plan.descriptor(), launcher: SimrunChildren.launcher)
        ).run(.init(start: 0, stride: 1, count: 40))
        #expect(report.incomplete == nil, "\(report.incomplete ?? "")")
        #expect(report.differences.isEmpty, "\(report.differences.map(\.seed))")
        #expect(report.checked == 40)
        #expect(Array(report.trapped.map(\.seed).prefix(2)) == [7, 9], "\(report.trapped.map(\.seed))")
        #expect(report.trapped.allSatisfy { $0.message.contains("Precondition failed: stale write") }, "\(report.trapped)")
    }
}
