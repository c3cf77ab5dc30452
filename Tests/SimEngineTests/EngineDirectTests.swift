import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// A read racing a write: `buggy` fails when the read goes first; `noread` never posts the read
/// (the fix removes the race); `ordered` posts the read from the write (the fix orders them);
/// `apart` posts the write late (the race never happens, for no reason the fix shows).
private let racing = Scenario(
    name: "racing", summary: "a read that must come after a write",
    variants: [
        .init("buggy", "both jobs"), .init("noread", "no read"), .init("ordered", "the write posts the read"),
        .init("broken", "fails whatever the order"),
    ]
) { simulation, variant in
    let written = ValueBox(false)
    let readEarly = ValueBox(false)
    let read = {
        if !written.value && variant == "buggy" { readEarly.value = true }
    }
    simulation.post(on: "a", "a.write") {
        written.value = true
        if variant == "ordered" { simulation.post(on: "b", "b.read", read) }
    }
    if variant == "buggy" || variant == "broken" { simulation.post(on: "b", "b.read", read) }
    simulation.always("read-after-write") { readEarly.value ? "the read ran before the write" : nil }
    if variant == "broken" { simulation.atEnd("broken") { "always fails" } }
}

/// SimEngine driven directly, as a user's package would: replay verdicts (every kind), the typed
/// child records, shrink, explain and in-order campaigns.
@Suite struct EngineDirectTests {
    let catalog = ScenarioCatalog([racing, LostInputNavigation.scenario])

    /// A failing `buggy` trace: the read taken ahead of the older write (one non-fifo pick).
    func failingTrace(_ directory: URL) throws -> String {
        let path = directory.appendingPathComponent("racing.simtrace").path
        let plan = RunPlan.probed(scenario: racing, variant: "buggy", strategy: StrategySpec(kind: .random))
        let result = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [1]), strategyName: "random", to: path)
        #expect(result.verdict.isFailure && result.deviations == 1)
        return path
    }

    @Test func theReplayVerdictOfEachKind() throws {
        let directory = try makeTemporaryDirectory("engine")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try failingTrace(directory)
        let same = try TraceReplay.decide(ReplayRequest(trace: trace), catalog: catalog)
        #expect(same.verdict == .identical)
        #expect(same.recorded == same.outcome && same.eventsCompared == same.eventCount)
        // The fix removes the race (the read never runs): a campaign decides, with its evidence.
        let removed = try TraceReplay.decide(ReplayRequest(trace: trace, variant: "noread"), catalog: catalog)
        guard case .pass(let evidence?) = removed.verdict else {
            Issue.record("expected a pass with evidence: \(removed.verdict)")
            return
        }
        #expect(evidence.unfollowed.map(\.reason) == ["missing"])
        #expect(evidence.seeds == TraceReplay.raceRemovedSeeds && evidence.failures == 0)
        // The fix orders the jobs: the same rule.
        let ordered = try TraceReplay.decide(ReplayRequest(trace: trace, variant: "ordered"), catalog: catalog)
        if case .pass(let evidence?) = ordered.verdict {
            #expect(evidence.unfollowed.map(\.reason) == ["ordered"])
        } else {
            Issue.record("expected a pass with evidence: \(ordered.verdict)")
        }
        // A variant that fails anyway: fail, whatever was followed.
        let broken = try TraceReplay.decide(ReplayRequest(trace: trace, variant: "broken"), catalog: catalog)
        guard case .fail(let outcome, nil) = broken.verdict else {
            Issue.record("expected fail: \(broken.verdict)")
            return
        }
        #expect(outcome.oracle == "broken")
        // Cut short: never a pass, on its own variant or another.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        let cut = directory.appendingPathComponent("cut.simtrace").path
        try bytes.prefix(bytes.count - 1).write(to: URL(fileURLWithPath: cut))
        let truncated = try TraceReplay.decide(ReplayRequest(trace: cut), catalog: catalog)
        guard case .inconclusive(.truncated) = truncated.verdict else {
            Issue.record("expected inconclusive (truncated): \(truncated.verdict)")
            return
        }
        #expect(!truncated.verdict.isSuccess)
    }

    @Test func aDamagedTailIsDamagedWithHowFarItCompared() throws {
        let directory = try makeTemporaryDirectory("engine")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A long trace written in small frames, its last frame corrupted.
        let path = directory.appendingPathComponent("lost.simtrace").path
        let plan = RunPlan.probed(scenario: LostInputNavigation.scenario, variant: "buggy", strategy: StrategySpec(kind: .pct))
        _ = try Recorder.record(plan: plan, seed: 6, strategy: plan.makeStrategy(), strategyName: "pct", to: path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count - 8] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            let report = try TraceReplay.decide(ReplayRequest(trace: path), catalog: catalog)
            guard case .damaged(let message, let compared) = report.verdict else {
                Issue.record("expected damaged: \(report.verdict)")
                return
            }
            #expect(message.contains("expected"))
            #expect(compared <= report.eventCount)
        } catch {
            // Damage the reader meets before any event is a bad trace, thrown (exit 65).
            #expect(error.kind == .badTrace)
        }
    }

    @Test func childRecordsRoundTrip() {
        let unfollowed = [
            UnfollowedDecision(number: 1, summary: "b/b.read#1 before a/a.write#1", reason: "apart", why: "w")
        ]
        let evidence = RaceRemoved(
            unfollowed: unfollowed, strategy: "pct", seeds: 0..<500, failures: 2, firstFailingSeed: 7)
        let verdicts: [ReplayVerdict] = [
            .identical, .diverged(atEvent: 3, lines: ["a", "b"]), .pass(raceRemoved: nil), .pass(raceRemoved: evidence),
            .fail(.fail(oracle: "o", message: "m"), raceRemoved: evidence), .crashed(message: "trap", atEvent: 9),
            .inconclusive(.truncated(eventsCompared: 4)), .inconclusive(.unfollowed(unfollowed)),
            .inconclusive(.scheduleProblem("p")), .damaged(message: "d", eventsCompared: 2),
        ]
        for verdict in verdicts {
            var report = ReplayReport(verdict: verdict, trace: "t.simtrace")
            report.scenario = "s"
            report.outcome = .crashed("x")
            report.recorded = .pass
            report.tally = ScheduleTally(
                decisions: 3, followed: 2, deviations: 1, followedDeviations: 1, unknownJobs: 4)
            report.notes = ["n"]
            #expect(ChildReply.replies(in: ChildReply.replayed(report).line) == [.replayed(report)])
        }
        let shrunk = ShrinkReport(
            runs: 4, before: ShrinkCounts(decisions: 5, nonFifo: 3, events: 40, steps: 9),
            after: ShrinkCounts(decisions: 2, nonFifo: 1, events: 20, steps: 5),
            verdict: .fail(oracle: "o", message: "m"))
        for reply in [
            ChildReply.partial(path: "/tmp/a b"), .shrunk(shrunk), .notReproduced,
            .failure(kind: .badTrace, message: "bad"), .sample(seed: 12, digest: 0xdead_beef_0123_4567, verdictCode: 3),
            .planned(estimatedSteps: 7, goals: ["g"]), .running(nil),
        ] {
            // The user's code printing around a reply is skipped; a reply is never searched for in text.
            #expect(ChildReply.replies(in: "noise\n" + reply.line + "\n{not a reply}\n") == [reply])
        }
        #expect(ChildReply.replies(in: "partial /tmp/x\ndigest 12 deadbeef 3") == [])
    }

    @Test func shrinkAndExplainATrace() throws {
        let directory = try makeTemporaryDirectory("engine")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try failingTrace(directory)
        let input = try TraceInput(path: trace)
        let footer = try #require(input.footer)
        let plan = try input.plan(in: catalog)
        let shrunkPath = directory.appendingPathComponent("shrunk.simtrace").path
        let report = try #require(try TraceShrink.shrink(input, footer: footer, plan: plan, to: shrunkPath))
        #expect(report.after.nonFifo <= report.before.nonFifo && report.verdict == footer.verdict)
        #expect(report.line.hasPrefix("shrunk in \(report.runs) runs: non-fifo decisions"))
        #expect(try TraceReplay.decide(ReplayRequest(trace: shrunkPath), catalog: catalog).verdict == .identical)
        let explanation = Explainer(
            plan: plan, input: input, target: FailureSignature(footer.verdict), runs: 20, jobs: 1
        ).explain { _, _ in }
        #expect(explanation.reproduces)
        #expect(explanation.decisive == 0, "the one decision makes the failure certain")
    }

    @Test func strategiesDeclareTheirCampaignShape() {
        for kind in StrategySpec.Kind.allCases {
            let shape = kind.campaignShape
            #expect((shape == .inOrder) == kind.learnsAcrossRuns, "\(kind)")
            #expect((StrategySpec(kind: kind).makeExhaustiveWalker() != nil) == (shape == .exhaustive), "\(kind)")
        }
    }

    @Test func anInOrderCampaignMarksEachRunAndReRecordsOne() throws {
        let directory = try makeTemporaryDirectory("engine")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(
            scenario: LostInputNavigation.scenario, variant: "fixed", strategy: StrategySpec(kind: .surw))
        let markerPath = directory.appendingPathComponent("marker").path
        var configuration = Fuzzer.Configuration(seeds: 0..<30)
        configuration.runMarker = try RunMarker(path: markerPath)
        let report = Fuzzer(plan: plan, configuration: configuration).run()
        #expect(report.schedules == 30)
        let marked = try #require(RunMarker.read(path: markerPath))
        #expect(marked.run == 29 && marked.seed == 29)
        // Re-running the campaign to record run 12 learns the same: its events are those of run 12.
        final class Events: EventSink {
            var digest = Digest()
            func define(_ symbol: Symbol, _ text: String) {}
            func record(_ event: Event) { digest.mix(event.seq) }
            func record(_ decision: Decision) {}
        }
        var again = Fuzzer.Configuration(seeds: 0..<30)
        let recording = InOrderRecording(run: 12, sink: Events())
        again.recording = recording
        let partial = Fuzzer(plan: plan, configuration: again).run()
        #expect(partial.schedules == 13 && recording.seed == 12)
        let result = try #require(recording.result)
        // The same run from a third campaign that stops there by itself.
        let strategy = plan.makeStrategy()
        var twelfth: RunResult?
        for seed in UInt64(0)...12 { twelfth = plan.run(seed: seed, strategy: strategy) }
        #expect(result.digest == twelfth?.digest)
    }
}
