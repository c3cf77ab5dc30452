import Foundation
import LedgerFixture
import SimCore
import SimTestSupport
import Testing

@testable import SimEngine

/// "Check your fix on that same schedule" for the fixes people write (issue #43), decided by
/// `TraceReplay`: a fix that cancels the previous task removes the recorded race (the overtaken
/// search's sleep is cancelled, so the recorded choice never comes), and a campaign on the fix
/// decides; a guard that drops stale results keeps the race and is tested on it; under noise the
/// answers are the same. And the rule stays precise: a replay with one decision that shows the race
/// removed and one that was simply not followed is inconclusive, never a pass.
@Suite struct FixCheckTests {
    /// A failing `stale-search`/buggy trace whose one non-fifo decision is the race (the newer
    /// search's wake-up taken ahead of the older's), as a shrunk finding is: recorded from the first
    /// random seed that fails that way.
    static func buggySearchTrace(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("stale.simtrace").path
        let seed = try #require(
            (UInt64(0)..<500).first {
                let result = staleSearch.run(variant: "buggy", seed: $0, strategy: RandomStrategy())
                return result.verdict.isFailure && result.deviations == 1
            }, "no seed of stale-search in 0..<500 fails with one non-fifo decision")
        let plan = RunPlan.probed(scenario: staleSearch, variant: "buggy", strategy: StrategySpec(kind: .random))
        let recorded = try Recorder.record(
            plan: plan, seed: seed, strategy: RandomStrategy(), strategyName: "random", to: path)
        #expect(recorded.verdict.oracle == "shows-latest-query" && recorded.deviations == 1, "\(recorded.verdict)")
        return path
    }

    static func replay(
        _ trace: String, variant: String, noise: Int? = nil, _ scenarios: [Scenario] = [staleSearch]
    ) throws -> ReplayReport {
        try TraceReplay.decide(
            ReplayRequest(trace: trace, variant: variant, noise: noise), catalog: ScenarioCatalog(scenarios))
    }

    /// The campaign's evidence of a pass because the fix removes the race, checked as the rule
    /// states it: the race not followed, the overtaken search cancelled, the campaign clean.
    private func expectRaceRemovedByCancellation(_ report: ReplayReport) {
        guard case .pass(let evidence?) = report.verdict else {
            Issue.record("not a pass decided by a campaign: \(report.verdict)")
            return
        }
        #expect(report.recordedVariant == "buggy" && report.variant == "fixed")
        #expect(report.tally.deviations == 1 && report.tally.followedDeviations == 0, "\(report.tally.line)")
        #expect(evidence.unfollowed.map(\.reason) == ["vanished"], "\(evidence)")
        #expect(evidence.unfollowed.allSatisfy { $0.cancelled })
        #expect(evidence.failures == 0 && evidence.firstFailingSeed == nil)
        #expect(evidence.strategy == "pct" && evidence.seeds == TraceReplay.raceRemovedSeeds)
        let line = evidence.line(variant: report.variant)
        #expect(line.hasPrefix("the fix removes the recorded race (decision "), "\(line)")
        #expect(
            line.contains("went ahead of, was cancelled here (its lane ran task.sleep.cancelled instead)"), "\(line)")
        #expect(line.hasSuffix("instead, pct seeds 0..<500 on fixed: 0 failures"), "\(line)")
    }

    @Test func aFixThatCancelsThePreviousTaskRemovesTheRaceAndACampaignDecides() throws {
        let directory = try makeTemporaryDirectory("cancel-fix")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.buggySearchTrace(in: directory)
        let report = try Self.replay(trace, variant: "fixed")
        expectRaceRemovedByCancellation(report)
        #expect(report.noise == 0 && report.outcome == .pass)
    }

    @Test func aGuardThatDropsStaleResultsIsTestedOnTheRecordedRace() throws {
        // Both searches still run and race: the recorded departure is followed, no campaign needed.
        let directory = try makeTemporaryDirectory("guard-fix")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.buggySearchTrace(in: directory)
        let guarded = try Self.replay(trace, variant: "guarded")
        #expect(guarded.verdict == .pass(raceRemoved: nil), "\(guarded.verdict)")
        #expect(guarded.tally.deviations == 1 && guarded.tally.followedDeviations == 1, "\(guarded.tally.line)")
        // The bug itself on the same schedule: still fails (the recorded race taken).
        let buggy = try Self.replay(trace, variant: "buggy", noise: 1)
        guard case .fail(let outcome, nil) = buggy.verdict else {
            Issue.record("the bug on its own schedule: \(buggy.verdict)")
            return
        }
        #expect(outcome.oracle == "shows-latest-query")
    }

    @Test func underNoiseEachFixGetsTheSameAnswer() throws {
        let directory = try makeTemporaryDirectory("noise-fix")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.buggySearchTrace(in: directory)
        let fixed = try Self.replay(trace, variant: "fixed", noise: 3)
        #expect(fixed.noise == 3 && fixed.recordedNoise == 0)
        expectRaceRemovedByCancellation(fixed)
        let guarded = try Self.replay(trace, variant: "guarded", noise: 3)
        #expect(guarded.verdict == .pass(raceRemoved: nil), "\(guarded.verdict)")
        #expect(guarded.tally.deviations == 1 && guarded.tally.followedDeviations == 1, "\(guarded.tally.line)")
    }

    // MARK: The rule stays precise

    /// Two independent races of the recording: `b.one` ahead of `a.one`, `d.one` ahead of `c.one`;
    /// `recorded` fails when both went that way. In `mixed` the first race is gone (`b.one` no longer
    /// exists) but the second is only missed: `d.one` is posted before `c.one`, so it meets `c.one`
    /// as the older job and fifo never runs `c.one` while `d.one` waits. In `removed`, both races are
    /// gone (`b.one` no longer exists, `d.one` is posted by `c.one`).
    static let twoRaces = Scenario(
        name: "two-races", summary: "",
        variants: [.init("recorded", ""), .init("mixed", ""), .init("removed", "")]
    ) { sim, variant in
        let order = ValueBox<[String]>([])
        let job = { (name: String) in { order.value.append(name) } }
        sim.post(on: "a", "a.one", job("a"))
        if variant == "recorded" { sim.post(on: "b", "b.one", job("b")) }
        switch variant {
        case "mixed":
            sim.post(on: "d", "d.one", job("d"))
            sim.post(on: "c", "c.one", job("c"))
        case "removed":
            sim.post(on: "c", "c.one") {
                order.value.append("c")
                sim.post(on: "d", "d.one", job("d"))
            }
        default:
            sim.post(on: "c", "c.one", job("c"))
            sim.post(on: "d", "d.one", job("d"))
        }
        sim.atEnd("in-order") {
            let o = order.value
            return (o.firstIndex(of: "b") ?? 9) < (o.firstIndex(of: "a") ?? 0)
                && (o.firstIndex(of: "d") ?? 9) < (o.firstIndex(of: "c") ?? 0) ? "both races went the wrong way" : nil
        }
    }

    static func twoRacesTrace(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("two.simtrace").path
        let plan = RunPlan.probed(scenario: twoRaces, variant: "recorded", strategy: StrategySpec(kind: .random))
        // b.one ahead of a.one, then a.one, then d.one ahead of c.one.
        let recorded = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [1, 0, 1]), strategyName: "random", to: path)
        #expect(recorded.verdict.isFailure && recorded.deviations == 2, "\(recorded.verdict) \(recorded.deviations)")
        return path
    }

    @Test func oneRaceRemovedBesideOneSimplyMissedIsInconclusive() throws {
        let directory = try makeTemporaryDirectory("two-races")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try Self.replay(try Self.twoRacesTrace(in: directory), variant: "mixed", [Self.twoRaces])
        guard case .inconclusive(.unfollowed(let decisions)) = report.verdict else {
            Issue.record("not inconclusive for unfollowed decisions: \(report.verdict)")
            return
        }
        #expect(decisions.map(\.reason) == ["missing", "never-ahead"], "\(decisions)")
    }

    @Test func everyRecordedRaceRemovedIsDecidedByTheCampaign() throws {
        let directory = try makeTemporaryDirectory("two-races")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try Self.replay(try Self.twoRacesTrace(in: directory), variant: "removed", [Self.twoRaces])
        guard case .pass(let evidence?) = report.verdict else {
            Issue.record("not a pass decided by a campaign: \(report.verdict)")
            return
        }
        #expect(evidence.unfollowed.map(\.reason) == ["missing", "ordered"], "\(evidence)")
        #expect(evidence.failures == 0)
    }
}
