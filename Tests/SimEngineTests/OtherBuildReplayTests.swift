import Foundation
import LedgerFixture
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// A trace recorded by one build of a user's code, judged by `TraceReplay` on other builds of it:
/// `ledger`/`default` as four commits build it (Tests/BuildFixtures), each catalog standing for one
/// build and each build named by a label. What a maintainer asks first: does this build still have
/// the recorded bug? A build that traps on the recorded schedule is replayed in a child process of
/// that build's executable (`ledger-asserting`), as the command replays it. What `replay` prints of
/// it, `--bisect`'s codes and build ids are ReplayCommandTests'.
@Suite struct OtherBuildReplayTests {
    /// The executable `name` built beside the test bundle.
    static func executable(_ name: String) -> String {
        SimrunProcess.executable.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Records a failing random schedule of the buggy build, labelled `label`, into `directory`
    /// (about one seed in two takes the payout's read ahead of the deposit).
    static func recordFailure(in directory: URL, label: String = "recorded") throws -> String {
        let path = directory.appendingPathComponent("ledger.simtrace").path
        let plan = RunPlan.probed(
            scenario: ledgerScenario(.buggy), variant: "default", strategy: StrategySpec(kind: .random))
        let seed = try #require(
            (UInt64(0)..<32).first { plan.run(seed: $0, strategy: plan.makeStrategy()).verdict.isFailure },
            "no failing seed of ledger in 0..<32")
        let result = try BuildIdentity.$label.withValue(label) {
            try Recorder.record(plan: plan, seed: seed, strategy: plan.makeStrategy(), strategyName: "random", to: path)
        }
        #expect(result.verdict.isFailure)
        return path
    }

    /// The replay of `trace` by the build `label` of `code`, on threads here or in a child of `launcher`.
    static func replay(
        _ trace: String, by code: LedgerCode, label: String, launcher: ProcessLauncher? = nil,
        judgeUnknownBuild: Bool = false
    ) throws -> ReplayReport {
        let request = ReplayRequest(trace: trace, build: "label:\(label)", judgeUnknownBuild: judgeUnknownBuild)
        let catalog = ScenarioCatalog([ledgerScenario(code), searchScenario(code)])
        return try TraceReplay.decide(
            request, catalog: catalog, isolation: launcher.map(Isolation.processes) ?? .inProcess)
    }

    @Test func eachBuildAnswersWithItsOwnVerdict() throws {
        let directory = try makeTemporaryDirectory("other-build")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordFailure(in: directory)
        let header = try TraceReader(path: trace).header
        #expect(header.formatVersion == 2 && header.build == "label:recorded")

        // The same build: events compared, identical (as before builds were recorded).
        let same = try Self.replay(trace, by: .buggy, label: "recorded")
        #expect(same.verdict == .identical && !same.judgedAsOtherBuild, "\(same.verdict)")

        // The fix: another build, its schedule followed by identity, the recorded race taken, passes.
        let fixed = try Self.replay(trace, by: .fixed, label: "fixed")
        #expect(fixed.verdict == .pass(raceRemoved: nil), "\(fixed.verdict)")
        #expect(fixed.judgedAsOtherBuild && fixed.recordedBuild == "label:recorded" && fixed.build == "label:fixed")
        #expect(fixed.eventsCompared == 0, "the schedule was followed by identity, not compared")
        #expect(fixed.recorded?.isFailure == true && fixed.tally.isConclusive, "\(fixed.tally.line)")

        // The racing code moved: the recorded decision names a job this build never runs.
        let moved = try Self.replay(trace, by: .moved, label: "moved")
        guard case .inconclusive(.unfollowed(let decisions)) = moved.verdict else {
            Issue.record("the moved build: \(moved.verdict)")
            return
        }
        #expect(moved.judgedAsOtherBuild && !decisions.isEmpty)
        #expect(decisions.contains { $0.summary.contains("payout/read#1") }, "\(decisions)")

        // A build that traps on the recorded schedule: its own verdict is the crash, in a child.
        let asserting = try Self.replay(
            trace, by: .asserting, label: "asserting",
            launcher: ProcessLauncher(executable: Self.executable("ledger-asserting")))
        guard case .crashed(let message, _) = asserting.verdict else {
            Issue.record("the asserting build: \(asserting.verdict)")
            return
        }
        #expect(message.contains("negative balance -5"), "\(message)")
        #expect(asserting.judgedAsOtherBuild)
    }

    @Test func anotherLabelOfTheSameCodeKeepsTheRecordedFailureOnIdenticalEvents() throws {
        let directory = try makeTemporaryDirectory("other-build-label")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordFailure(in: directory, label: "v1")
        #expect(try TraceReader(path: trace).header.build == "label:v1")
        let relabelled = try Self.replay(trace, by: .buggy, label: "v2")
        guard case .fail(let outcome, nil) = relabelled.verdict else {
            Issue.record("relabelled: \(relabelled.verdict)")
            return
        }
        #expect(outcome == relabelled.recorded)
        #expect(relabelled.judgedAsOtherBuild && relabelled.eventsCompared > 0, "the events are identical")
        #expect(relabelled.recordedBuild == "label:v1" && relabelled.build == "label:v2")
        #expect(try Self.replay(trace, by: .buggy, label: "v1").verdict == .identical)
    }

    /// A recording of unknown build is compared, never judged, unless the request asks to judge it
    /// (as `replay --bisect` does on every commit).
    @Test func aTraceOfUnknownBuildIsJudgedOnlyWhenAsked() throws {
        let directory = try makeTemporaryDirectory("other-build-unknown")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordFailure(in: directory, label: "")
        #expect(try TraceReader(path: trace).header.build == "")
        let compared = try Self.replay(trace, by: .fixed, label: "fixed")
        guard case .diverged = compared.verdict else {
            Issue.record("the fix compared with the recording: \(compared.verdict)")
            return
        }
        #expect(!compared.judgedAsOtherBuild)
        let judged = try Self.replay(trace, by: .fixed, label: "fixed", judgeUnknownBuild: true)
        #expect(judged.verdict == .pass(raceRemoved: nil) && judged.judgedAsOtherBuild, "\(judged.verdict)")
        let stillBuggy = try Self.replay(trace, by: .buggy, label: "buggy", judgeUnknownBuild: true)
        #expect(
            stillBuggy.verdict == .fail(try #require(stillBuggy.recorded), raceRemoved: nil), "\(stillBuggy.verdict)")
    }

    /// Format 1 traces (no build) stay readable and replay as before: compared, never judged as
    /// another build's.
    @Test func formatOneTracesStayReadable() throws {
        let traces = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Traces")
        let path = traces.appendingPathComponent("counter-race-buggy-no-lost-update.simtrace").path
        let header = try TraceReader(path: path).header
        #expect(header.formatVersion == 1)
        #expect(header.build.isEmpty)
        let report = try TraceReplay.decide(
            ReplayRequest(trace: path, build: "label:now"), catalog: ScenarioCatalog(BuiltinScenarios.all))
        #expect(report.verdict == .identical && !report.judgedAsOtherBuild, "\(report.verdict)")
    }
    // MARK: The verdicts `replay --bisect` reads on each commit

    /// A shrunk failing trace of `search` as a campaign saves it (the newer search's wake-up ahead of
    /// the older one's), of unknown build: the fixed build cancels the older search, so the recorded
    /// race cannot happen there and the campaign run instead passes; the moved build still fails.
    @Test func anAsyncTraceWhoseFixCancelsTheOlderTaskIsPassedByTheFixOnly() throws {
        let directory = try makeTemporaryDirectory("bisect-async")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(scenario: searchScenario(.buggy), variant: "default", strategy: .campaignDefault)
        let found = try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: 0..<500, jobs: 1),
            options: .init(directory: directory.appendingPathComponent("found").path, shrink: true)
        ).run()
        let trace = try #require(found.findings.first?.path, "no failure of search in 0..<500")
        let fixed = try Self.replay(trace, by: .fixed, label: "fixed", judgeUnknownBuild: true)
        guard case .pass(let evidence?) = fixed.verdict else {
            Issue.record("the fixed build: \(fixed.verdict)")
            return
        }
        #expect(evidence.line(variant: "this build").hasPrefix("the fix removes the recorded race"))
        #expect(evidence.failures == 0)
        for (code, label) in [(LedgerCode.buggy, "recorded"), (.moved, "moved")] {
            let report = try Self.replay(trace, by: code, label: label, judgeUnknownBuild: true)
            guard case .fail = report.verdict else {
                Issue.record("\(label): \(report.verdict)")
                continue
            }
        }
    }

    /// A crash recorded by the asserting build (in a child of it) whose last picks went ahead of the
    /// deposit, which never ran: the trace does not name it, and the fixed build still follows the
    /// recorded schedule (every non-fifo decision) and passes; the asserting build still crashes.
    @Test func aCrashTraceIsFollowedWholeByTheFixAndStillCrashesTheBuildThatTraps() throws {
        let directory = try makeTemporaryDirectory("bisect-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let asserting = ProcessLauncher(executable: Self.executable("ledger-asserting"))
        let plan = try RunPlan.probed(
            scenario: ledgerScenario(.asserting), variant: "default", strategy: StrategySpec(kind: .random)
        ).descriptor()
        let path = directory.appendingPathComponent("crash.simtrace").path
        var trace: String?
        for seed in UInt64(0)..<64 {
            let outcome = try IsolatedRecording(plan: plan, launcher: asserting).record(seed: seed, to: path)
            guard outcome.crashed else { continue }
            let file = try TraceFile.load(path: path)
            if !file.events.contains(where: { file.text($0.subject) == "deposit" }) {
                trace = path
                break
            }
        }
        let crash = try #require(trace, "no random seed of ledger in 0..<64 crashed before the deposit ran")
        #expect(try TraceInput(path: crash).footer?.verdict.isCrash == true)
        // The fixed build never traps: decided here, as a child of its executable would decide it.
        let fixed = try TraceReplay.decide(
            ReplayRequest(trace: crash, build: "label:fixed"), catalog: ScenarioCatalog([ledgerScenario(.fixed)]))
        #expect(fixed.verdict == .pass(raceRemoved: nil) && fixed.judgedAsOtherBuild, "\(fixed.verdict)")
        #expect(
            fixed.tally.decisions == 2 && fixed.tally.followed == 2 && fixed.tally.deviations == 2
                && fixed.tally.followedDeviations == 2, "\(fixed.tally.line)")
        let again = try Self.replay(crash, by: .asserting, label: "asserting", launcher: asserting)
        guard case .crashed(let message, _) = again.verdict else {
            Issue.record("the asserting build: \(again.verdict)")
            return
        }
        #expect(message.contains("negative balance"), "\(message)")
    }
}
