import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

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

    /// `simrun replay` of a fresh failing trace (on `variant`, or its own), with what it printed.
    private func replay(on variant: String?) throws -> (status: Int32, console: Console) {
        let trace = try failingTrace(in: try makeTemporaryDirectory("identity"))
        let console = Console(capturing: true)
        let arguments = ["replay", trace] + (variant.map { ["--variant", $0] } ?? [])
        return (SimRun.run(arguments: arguments, scenarios: [racingFails], console: console), console)
    }

    /// The job the departure went ahead of (`a.write`) no longer exists on `gone`: the race went with
    /// it, as it does when the departing job goes (issue #43). The replay cannot test the fix, so a pct
    /// campaign on `gone` decides, and the verdict carries that evidence; it is never a bare pass.
    @Test func aVanishedOvertakenJobRemovesTheRaceAndACampaignDecides() throws {
        let (status, console) = try replay(on: "gone")
        #expect(status == ExitStatus.ok, "\(console.capturedLines)")
        let output = console.capturedOutput
        #expect(output.contains("followed 0 of 1 decisions (0 of 1 non-fifo)"), "\(output)")
        #expect(
            output.contains(
                "race removed: the fix removes the recorded race (decision 1: a/a.write#1, which b/b.read#1 went ahead of, never ran here); instead, pct seeds 0..<500 on gone: 0 failures"
            ), "\(output)")
        // The note goes to stderr, numbered as `show` numbers decisions.
        #expect(
            console.capturedLines.contains(
                "err: note: decision 1 (b/b.read#1 before a/a.write#1) could not be followed: a/a.write#1, which b/b.read#1 went ahead of, never ran here"
            ), "\(console.capturedLines)")
    }

    /// The departing job (`b.read`) no longer exists on `noread`: the fix removes the race itself. The
    /// replay cannot test it, so the one rule (`TraceReplay`) runs a pct campaign there instead and
    /// the verdict carries that evidence; it is never a bare pass.
    @Test func aMissingDepartingJobRemovesTheRaceAndACampaignDecides() throws {
        let (status, console) = try replay(on: "noread")
        #expect(status == ExitStatus.ok, "\(console.capturedLines)")
        #expect(console.capturedOutput.contains("followed 0 of 1 decisions (0 of 1 non-fifo)"))
        #expect(
            console.capturedOutput.contains(
                "race removed: the fix removes the recorded race (decision 1: b/b.read#1 never ran here, or never with another job ready); instead, pct seeds 0..<500 on noread: 0 failures"
            ), "\(console.capturedOutput)")
    }

    @Test func aReplayUnderOtherNoiseFollowsTheScheduleByIdentity() throws {
        let trace = try failingTrace(in: try makeTemporaryDirectory("identity"))
        let console = Console(capturing: true)
        let status = SimRun.run(
            arguments: ["replay", trace, "--noise", "2"], scenarios: [racingFails], console: console)
        // The noise lanes are new work: they run where they become ready, and the race still happens.
        #expect(status == ExitStatus.failure, "\(console.capturedLines)")
        #expect(console.capturedOutput.contains("replayed on buggy with 2 noise lanes: FAIL"))
        #expect(console.capturedOutput.contains("followed 1 of 1 decisions (all 1 non-fifo)"))
    }

    @Test func theHelpDocumentsExitTwo() {
        let (status, replayHelp) = simrun(["replay", "--help"])
        #expect(status == 0)
        #expect(replayHelp.contains("  2  ") || replayHelp.contains("inconclusive: replay"))
        #expect(
            simrun(["--help"]).1.contains("inconclusive: replay not followed or cut short"))
    }

    @Test func unrelatedJobsShiftPositionsButTheRaceIsStillFollowed() throws {
        let (status, console) = try replay(on: "extra")
        // `extra` does not fail (its oracle is off) but the recorded race happened: a conclusive pass.
        #expect(status == ExitStatus.ok, "\(console.capturedLines)")
        #expect(
            console.capturedOutput.contains(
                "followed 1 of 1 decisions (all 1 non-fifo); 2 jobs not in the trace ran in fifo order"))
    }

    @Test func aReplayOnItsOwnVariantSaysHowMuchItFollowed() throws {
        let (status, console) = try replay(on: nil)
        #expect(status == ExitStatus.ok)
        #expect(console.capturedOutput.contains("followed 1 of 1 decisions (all 1 non-fifo)"))
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
}

/// A data decision decides the bug: `explain` names its site as `show` does.
@Suite struct ExplainNamesSitesTests {
    private static let choosing = Scenario(name: "slow-network", summary: "", variants: [.init("buggy", "")]) {
        sim, _ in
        sim.post(on: "main", "fetch") {
            let delay = sim.choose(3, "net.delay")
            sim.always("fast enough") { delay == 2 ? "the response took too long" : nil }
        }
    }

    @Test func aDecisiveDataDecisionIsNamedBySite() throws {
        let directory = try makeTemporaryDirectory("explain-site")
        let path = directory.appendingPathComponent("slow.simtrace").path
        let plan = RunPlan.probed(scenario: Self.choosing, variant: "buggy", strategy: StrategySpec(kind: .random))
        let recorded = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [2]), strategyName: "random", to: path)
        #expect(recorded.verdict.isFailure)
        let console = Console(capturing: true)
        let status = SimRun.run(
            arguments: ["explain", path, "--runs", "20", "--jobs", "1"], scenarios: [Self.choosing], console: console)
        #expect(status == 0, "\(console.capturedLines)")
        let output = console.capturedOutput
        #expect(output.contains("choose net.delay = 2 of 3"), "\(output)")
        #expect(output.contains("The bug became certain at decision 1, choose net.delay = 2 of 3"), "\(output)")
    }
}
