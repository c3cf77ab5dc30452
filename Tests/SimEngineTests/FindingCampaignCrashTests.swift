import Foundation
import SimCore
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// A model that traps is a finding (`FindingCampaign` with worker processes of the built `simrun`):
/// the campaign keeps going past it, records it again sealed up to the trap, shrinks it (each
/// candidate in a child), and its trace replays as the same crash in a child instead of ending this
/// process. What `fuzz` prints about a crash: SimRunKitTests' `FuzzFindingsCommandTests`.
@Suite(.serialized) struct FindingCampaignCrashTests {
    @Test func aCampaignKeepsGoingPastATrapAndItsTraceReplaysTheCrash() throws {
        let directory = try makeTemporaryDirectory("crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try BuiltinCampaigns.plan("unruly-counter", variant: "crashing")
        let result = try BuiltinCampaigns.fuzz(plan, seeds: 0..<60, shrink: true, keepGoing: true, into: directory)
        #expect(result.report.schedules == 60, "every seed ran")
        #expect(result.findings.contains { $0.kind == .failure }, "the ordinary failure is still found")
        #expect(!result.findings.contains { $0.kind == .nondeterministic })
        let crash = try #require(result.findings.first { $0.kind == .crash })
        #expect(crash.problem == nil, "\(String(describing: crash.problem))")
        #expect(crash.foundVerdict.message.contains("Precondition failed: stale write"), "\(crash.foundVerdict)")
        #expect(crash.recording?.crashed == true, "recorded again up to the trap")
        // Shrunk with every candidate in a child: the same crash, re-checked identical.
        guard case .shrunk = crash.shrink else {
            Issue.record("the crash was not shrunk: \(String(describing: crash.shrink))")
            return
        }
        #expect(crash.verdict.message.contains("stale write") && crash.replay == .identical)
        let trace = try #require(crash.path)
        #expect(trace.hasSuffix("/unruly-counter-crashing-crashed.simtrace"))
        let file = try TraceFile.load(path: trace)
        guard case .crashed(let message) = file.footer?.verdict else {
            Issue.record("the crash trace must end with a crashed verdict: \(String(describing: file.footer))")
            return
        }
        #expect(message.contains("stale write"))
        #expect(file.events.last.map { file.text($0.kind) } == "sched.pick", "kept up to the job that trapped")
        // Where it trapped, with or without the runtime's message (a release build keeps none).
        #expect(try CrashShrink.runningJob(path: trace) == "worker.a/write#1")
        let replay = try BuiltinCampaigns.replay(trace)
        #expect(replay.verdict == .identical && replay.eventCount == UInt64(file.events.count), "\(replay.verdict)")
        #expect(replay.outcome.message.contains("stale write"), "\(replay.outcome)")
        // Another variant follows the schedule to its own end: the failure it has, no trap.
        let other = try BuiltinCampaigns.replay(trace, variant: "wall-clock")
        guard case .fail(let verdict, _) = other.verdict else {
            Issue.record("another variant runs the schedule: \(other.verdict)")
            return
        }
        #expect(!verdict.isCrash, "\(verdict)")
    }

    /// Without keeping going, the lowest failing seed wins (a crash or a failure), whatever the jobs.
    @Test func theFirstFindingIsTheSameWhateverTheJobs() throws {
        let plan = try BuiltinCampaigns.plan("unruly-counter", variant: "crashing")
        var first: [(SavedFinding.Kind, UInt64, String)] = []
        for jobs in [1, 2] {
            let directory = try makeTemporaryDirectory("crash-jobs")
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try BuiltinCampaigns.fuzz(plan, seeds: 1..<60, jobs: jobs, into: directory)
            let finding = try #require(result.findings.first, "jobs \(jobs)")
            first.append((finding.kind, finding.seed, FailureSignature(finding.foundVerdict).description))
        }
        #expect(first[0] == first[1], "\(first)")
    }

    /// square/Blueprint PR #618: before it, a nested update pass trapped on a precondition. The buggy
    /// variant really traps: a crash finding whose trace replays identically, and the fixed variant
    /// (which defers the nested pass) passes its schedule.
    @Test func theReentrantUpdateCrashIsACrashFindingAndTheFixPassesItsSchedule() throws {
        let directory = try makeTemporaryDirectory("blueprint-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try BuiltinCampaigns.plan("blueprint-reentrant-update-crash")
        let result = try BuiltinCampaigns.fuzz(plan, seeds: 0..<200, into: directory)
        let crash = try #require(result.findings.first { $0.kind == .crash }, "\(result.findings.map(\.kind))")
        #expect(crash.verdict.message.contains("Reentrant updates are not supported in BlueprintView"), "\(crash.verdict)")
        let trace = try #require(crash.path)
        #expect(trace.hasSuffix("/blueprint-reentrant-update-crash-buggy-crashed.simtrace"))
        #expect(try BuiltinCampaigns.replay(trace).verdict == .identical)
        #expect(try BuiltinCampaigns.replay(trace, variant: "fixed").verdict.isSuccess)
    }

    /// `fuzz --from` a crash trace: every run keeps its first decisions, the crash is found again and
    /// recorded up to the trap (not taken for nondeterminism), and its trace replays as the crash.
    @Test func aCampaignFromACrashTraceKeepsTheCrash() throws {
        let directory = try makeTemporaryDirectory("from-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("crash.simtrace").path
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        try FileManager.default.copyItem(
            atPath: package.appendingPathComponent("Traces/blueprint-reentrant-update-crash-buggy-crashed.simtrace").path,
            toPath: source)
        let header = try TraceInput(path: source).header
        let plan = try BuiltinCampaigns.plan(
            header.scenario, variant: header.variant, prefix: .init(source: source, keep: 3))
        #expect(plan.prefix?.keep == 3)
        let out = directory.appendingPathComponent("c7")
        let result = try BuiltinCampaigns.fuzz(plan, seeds: 0..<5, into: out)
        #expect(result.findings.map(\.kind) == [.crash], "\(result.findings.map(\.kind))")
        let crash = try #require(result.findings.first)
        #expect(crash.recording?.crashed == true && crash.problem == nil, "\(String(describing: crash.problem))")
        let trace = try #require(crash.path)
        #expect(trace.hasSuffix("/blueprint-reentrant-update-crash-buggy-crashed.simtrace"))
        let replay = try BuiltinCampaigns.replay(trace)
        #expect(replay.verdict == .identical && replay.outcome.isCrash, "\(replay.verdict) \(replay.outcome)")
    }
}
