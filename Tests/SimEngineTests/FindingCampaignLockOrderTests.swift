import Foundation
import SimCore
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// `--preempt` campaigns over the concurrency runtime's locks and libraries' lock orders (issue #41),
/// through `FindingCampaign` in children of the built `simrun` (runs on carriers stay out of this
/// process): a deadlock names both locks, who holds each and where it was taken; two lock classes
/// taken in both orders are a potential deadlock even when every run passed, and the search aimed at
/// the inverted schedule turns the evidence into a deadlock.
@Suite(.serialized) struct FindingCampaignLockOrderTests {
    @Test func aStatusLockInversionIsADeadlockNamingBothLocksAndTheirHolders() throws {
        let directory = try makeTemporaryDirectory("status-lock")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try BuiltinCampaigns.plan("subject-cancel-deadlock", preempt: true)
        let result = try BuiltinCampaigns.fuzz(plan, seeds: 0..<10_000, shrink: true, into: directory)
        let finding = try #require(result.findings.first, "no finding")
        guard case .deadlock(let message) = finding.foundVerdict else {
            Issue.record("not a deadlock: \(finding.foundVerdict)")
            return
        }
        #expect(message.contains("every lane blocked"), "\(message)")
        // The status lock of the cancelled subscriber, held by the task cancelling it, taken at the cancel.
        #expect(
            message.contains(
                "waits for the status lock of task>SubjectCancelDeadlock.scenario{1}{1}{3}.1 (held by task>SubjectCancelDeadlock.scenario{1}{1}{5}.1 cancelling it, taken at status-lock SubjectCancelDeadlock.scenario{1}{1}{5})"
            ), "\(message)")
        // The subject's lock, held by the sender, taken in send, wanted by the cancellation handler.
        #expect(message.contains("waits for lock L"), "\(message)")
        #expect(message.contains("taken at lock ValueSubject.send(_:)), in ValueSubject.unsubscribe(_:)"), "\(message)")
        // The finding replays identically on the build that found it, and the fix passes its schedule.
        let trace = try #require(finding.path)
        #expect(trace.hasSuffix("/subject-cancel-deadlock-buggy-deadlock.simtrace"))
        #expect(finding.replay == .identical)
        #expect(try BuiltinCampaigns.replay(trace).verdict == .identical)
        #expect(try BuiltinCampaigns.replay(trace, variant: "fixed").verdict.isSuccess)
    }

    /// The first fix reorders deliveries (a failure of its own); the turnstile fix passes.
    @Test func theFirstFixReordersDeliveriesAndTheTurnstileDoesNot() throws {
        let directory = try makeTemporaryDirectory("status-lock-fixes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let reordering = try BuiltinCampaigns.fuzz(
            try BuiltinCampaigns.plan("subject-cancel-deadlock", variant: "buggy-reorder", preempt: true),
            seeds: 0..<10_000, into: directory.appendingPathComponent("reorder"))
        let finding = try #require(reordering.findings.first)
        #expect(finding.foundVerdict.oracle == "delivered-in-order", "\(finding.foundVerdict)")
        #expect(finding.foundVerdict.message.hasPrefix("the subscriber received 1 after 2"), "\(finding.foundVerdict)")
        let fixed = try BuiltinCampaigns.fuzz(
            try BuiltinCampaigns.plan("subject-cancel-deadlock", variant: "fixed", preempt: true),
            seeds: 0..<1500, into: directory.appendingPathComponent("fixed"))
        #expect(!fixed.foundSomething && fixed.report.schedules == 1500, "\(fixed.findings.map(\.foundVerdict))")
    }

    @Test func bothOrdersInPassingRunsAreAPotentialDeadlockAndTheAimedSearchDeadlocks() throws {
        let directory = try makeTemporaryDirectory("lock-order")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Seeds 1..<4 all pass, and each takes both orders (two tasks, one each way).
        let buggy = try BuiltinCampaigns.plan("shared-dependency-deadlock", preempt: true)
        let result = try BuiltinCampaigns.fuzz(buggy, seeds: 1..<4, into: directory)
        #expect(result.report.failures == 0, "every run of the campaign passed")
        let potential = try #require(result.potentialDeadlocks.first)
        #expect(potential.first.edge.from == "lock made in DependencyCache.init()")
        #expect(potential.first.edge.to == "lock made in PersistentReferences.init(buildsUnderLock:)")
        #expect(potential.first.edge.toSite == "lock PersistentReferences.reference(_:make:)")
        #expect(potential.second.edge.from == "lock made in PersistentReferences.init(buildsUnderLock:)")
        #expect(potential.second.edge.toSite == "lock DependencyCache.value(_:live:)")
        #expect(potential.traces.count == 2 && potential.problem == nil, "\(potential)")
        #expect(potential.aimedDeadlockSeed != nil, "the aimed search found the deadlock: \(potential)")
        for trace in potential.traces {
            #expect(FileManager.default.fileExists(atPath: trace), "\(trace)")
        }
        #expect(result.foundSomething)
        // PR #153's fix takes the references' lock alone: one order only, no potential deadlock.
        let fixed = try BuiltinCampaigns.fuzz(
            try BuiltinCampaigns.plan("shared-dependency-deadlock", variant: "fixed", preempt: true), seeds: 0..<300,
            into: directory.appendingPathComponent("fixed"))
        #expect(!fixed.foundSomething && fixed.potentialDeadlocks.isEmpty)
    }
}
