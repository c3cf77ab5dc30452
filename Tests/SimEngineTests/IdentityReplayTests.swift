import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// Two jobs race on a shared flag: `a.write` then `b.read` is fine, `b.read` first fails. Variant
/// `gone` never posts `a.write` (so the decisive job of a failing trace does not exist there);
/// `extra` posts an unrelated job first, which shifts every position but no identity.
private let racing = Scenario(
    name: "racing-flag", summary: "a read that must come after a write",
    variants: [.init("buggy", "both jobs"), .init("gone", "no write"), .init("extra", "an unrelated job first")]
) { simulation, variant in
    let box = ValueBox(false)
    if variant == "extra" {
        simulation.post(on: "c", "c.other") {}
        simulation.post(on: "c", "c.other") {}
    }
    if variant != "gone" { simulation.post(on: "a", "a.write") { box.value = true } }
    simulation.post(on: "b", "b.read") { simulation.emit("read", box.value ? "set" : "unset") }
    simulation.always("read-after-write") { nil }
    simulation.atEnd("read-after-write") { nil }
}

/// The same, failing when the read comes first (only `buggy` and `extra` can fail).
private let racingFails = Scenario(
    name: "racing-flag", summary: "a read that must come after a write",
    variants: [
        .init("buggy", "both jobs"), .init("gone", "no write"), .init("extra", "an unrelated job first"),
        .init("noread", "no read"),
    ]
) { simulation, variant in
    let written = ValueBox(false)
    let readEarly = ValueBox(false)
    if variant == "extra" {
        simulation.post(on: "c", "c.other") {}
        simulation.post(on: "c", "c.other") {}
    }
    if variant != "gone" { simulation.post(on: "a", "a.write") { written.value = true } }
    if variant == "noread" { return }
    simulation.post(on: "b", "b.read") { if !written.value && variant == "buggy" { readEarly.value = true } }
    simulation.always("read-after-write") { readEarly.value ? "the read ran before the write" : nil }
}

/// `TraceReplay` on another variant (or other noise) follows the schedule by identity: each departure
/// by the job it took and the jobs it went ahead of, new work where it becomes ready, and a race
/// that cannot happen there decided by a campaign instead (issue #43), with the evidence.
@Suite struct IdentityReplayTests {
    /// A failing `buggy` trace: the read taken ahead of the older write (one non-fifo pick).
    private func failingTrace(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("racing.simtrace").path
        let plan = RunPlan.probed(scenario: racingFails, variant: "buggy", strategy: StrategySpec(kind: .random))
        let result = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [1]), strategyName: "random", to: path)
        #expect(result.verdict.isFailure)
        #expect(result.deviations == 1)
        return path
    }

    /// The engine's replay of a fresh failing trace (on `variant`, or its own; with `noise` lanes).
    private func replay(on variant: String?, noise: Int? = nil) throws -> ReplayReport {
        let directory = try makeTemporaryDirectory("identity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try failingTrace(in: directory)
        return try TraceReplay.decide(
            ReplayRequest(trace: trace, variant: variant, noise: noise), catalog: ScenarioCatalog([racingFails]))
    }

    /// The job the departure went ahead of (`a.write`) no longer exists on `gone`: the race went with
    /// it, as it does when the departing job goes (issue #43). The replay cannot test the fix, so a pct
    /// campaign on `gone` decides, and the verdict carries that evidence; it is never a bare pass.
    @Test func aVanishedOvertakenJobRemovesTheRaceAndACampaignDecides() throws {
        let report = try replay(on: "gone")
        guard case .pass(let evidence?) = report.verdict else {
            Issue.record("not a pass decided by a campaign: \(report.verdict)")
            return
        }
        #expect(report.tally.decisions == 1 && report.tally.followed == 0, "\(report.tally.line)")
        #expect(report.tally.deviations == 1 && report.tally.followedDeviations == 0, "\(report.tally.line)")
        #expect(
            evidence.line(variant: report.variant)
                == "the fix removes the recorded race (decision 1: a/a.write#1, which b/b.read#1 went ahead of, never ran here); instead, pct seeds 0..<500 on gone: 0 failures"
        )
        #expect(evidence.unfollowed.map(\.reason) == ["vanished"] && evidence.firstFailingSeed == nil)
        // The note names the decision as `show` numbers it.
        #expect(
            report.notes == [
                "decision 1 (b/b.read#1 before a/a.write#1) could not be followed: a/a.write#1, which b/b.read#1 went ahead of, never ran here"
            ], "\(report.notes)")
    }

    /// The departing job (`b.read`) no longer exists on `noread`: the fix removes the race itself. The
    /// replay cannot test it, so the one rule (`TraceReplay`) runs a pct campaign there instead and
    /// the verdict carries that evidence; it is never a bare pass.
    @Test func aMissingDepartingJobRemovesTheRaceAndACampaignDecides() throws {
        let report = try replay(on: "noread")
        guard case .pass(let evidence?) = report.verdict else {
            Issue.record("not a pass decided by a campaign: \(report.verdict)")
            return
        }
        #expect(report.tally.decisions == 1 && report.tally.followed == 0, "\(report.tally.line)")
        #expect(report.tally.followedDeviations == 0)
        #expect(
            evidence.line(variant: report.variant)
                == "the fix removes the recorded race (decision 1: b/b.read#1 never ran here, or never with another job ready); instead, pct seeds 0..<500 on noread: 0 failures"
        )
        #expect(evidence.unfollowed.map(\.reason) == ["missing"])
    }

    @Test func aReplayUnderOtherNoiseFollowsTheScheduleByIdentity() throws {
        // The noise lanes are new work: they run where they become ready, and the race still happens.
        let report = try replay(on: nil, noise: 2)
        guard case .fail(let outcome, nil) = report.verdict else {
            Issue.record("not a failure: \(report.verdict)")
            return
        }
        #expect(outcome.oracle == "read-after-write")
        #expect(report.onOtherVariant && report.variant == "buggy" && report.noise == 2 && report.recordedNoise == 0)
        #expect(report.tally.decisions == 1 && report.tally.followed == 1, "\(report.tally.line)")
        #expect(report.tally.deviations == 1 && report.tally.followedDeviations == 1)
    }

    @Test func unrelatedJobsShiftPositionsButTheRaceIsStillFollowed() throws {
        // `extra` does not fail (its oracle is off) but the recorded race happened: a conclusive pass.
        let report = try replay(on: "extra")
        #expect(report.verdict == .pass(raceRemoved: nil), "\(report.verdict)")
        #expect(report.tally.decisions == 1 && report.tally.followed == 1, "\(report.tally.line)")
        #expect(report.tally.deviations == 1 && report.tally.followedDeviations == 1)
        #expect(report.tally.unknownJobs == 2, "\(report.tally.line)")
    }

    @Test func aReplayOnItsOwnVariantSaysHowMuchItFollowed() throws {
        let report = try replay(on: nil)
        #expect(report.verdict == .identical, "\(report.verdict)")
        #expect(!report.onOtherVariant)
        #expect(report.tally.decisions == 1 && report.tally.followed == 1, "\(report.tally.line)")
        #expect(report.tally.deviations == 1 && report.tally.followedDeviations == 1)
    }

    @Test func theScheduleStrategyFollowsDepartureByIdentityAndTakesNewWorkWhereItAppears() {
        // Recorded on `buggy`: b.read overtakes a.write.
        let observer = ScheduleObserver(GuidedStrategy(choices: [1]))
        let ledger = JobLedger()
        _ = racing.run(variant: "buggy", seed: 0, strategy: observer, sink: ledger)
        var schedule = observer.schedule
        schedule.jobs = ledger.jobs.union(observer.offered)
        #expect(schedule.entries.count == 1)
        #expect(schedule.deviations == [0])
        #expect(schedule.keeping([]).entries.isEmpty && schedule.keeping([0]) == schedule)
        #expect(schedule.entries[0].summary == "b/b.read#1 before a/a.write#1")
        // On `extra` the two c.other jobs are new: they run where they become ready, then the race
        // goes as recorded although every position moved.
        let strategy = ScheduleStrategy(schedule: schedule)
        let sink = MemorySink()
        _ = racing.run(variant: "extra", seed: 0, strategy: strategy, sink: sink)
        let order = sink.events.filter { sink.text($0.kind) == "sched.pick" }.map { sink.text($0.subject) }
        #expect(order == ["c.other", "c.other", "b.read", "a.write"])
        #expect(strategy.tally == ScheduleTally(decisions: 1, followed: 1, deviations: 1, followedDeviations: 1))
        #expect(strategy.unfollowedDeviations().isEmpty)
    }

    /// The flagship bug's lowest failing `pct` seed, replayed on `fixed`: both recorded races are
    /// met there, with no note; the one job the fix adds runs in fifo order.
    @Test func theFlagshipFixMeetsBothRecordedRacesWithoutANote() throws {
        let scenario = LostInputNavigation.scenario
        let plan = RunPlan.probed(scenario: scenario, variant: "buggy", strategy: StrategySpec(kind: .pct))
        let seed = try #require(
            (UInt64(0)..<1_000).first { plan.run(seed: $0, strategy: plan.makeStrategy()).verdict.isFailure })
        let directory = try makeTemporaryDirectory("replay-notes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("lost.simtrace").path
        _ = try Recorder.record(plan: plan, seed: seed, strategy: plan.makeStrategy(), strategyName: "pct", to: trace)
        let report = try TraceReplay.decide(
            ReplayRequest(trace: trace, variant: "fixed"), catalog: ScenarioCatalog(BuiltinScenarios.all))
        #expect(report.verdict == .pass(raceRemoved: nil), "\(report.verdict)")
        #expect(report.seed == seed && report.recordedVariant == "buggy" && report.variant == "fixed")
        #expect(
            report.tally
                == ScheduleTally(decisions: 2, followed: 2, deviations: 2, followedDeviations: 2, unknownJobs: 1),
            "\(report.tally.line)")
        #expect(report.notes.isEmpty, "\(report.notes)")
    }
}
