import Foundation
import LedgerFixture
import SimCore
import SimEngine
import SimRunKit
import SimTestSupport
import Testing

/// "Check your fix on that same schedule" for the fixes people write (issue #43): a fix that cancels
/// the previous task removes the recorded race (the overtaken search's sleep is cancelled, so the
/// recorded choice never comes), and a campaign on the fix decides; a guard that drops stale results
/// keeps the race and is tested on it; under `--noise` the answers are the same. And the rule stays
/// precise: a replay with one decision that shows the race removed and one that was simply not
/// followed is inconclusive, never a pass.
@Suite struct FixCheckTests {
    /// A failing `stale-search`/buggy trace whose one non-fifo decision is the race (the newer
    /// search's wake-up taken ahead of the older's), as `fuzz` leaves it once shrunk: recorded from
    /// the first random seed that fails that way.
    static func buggySearchTrace(_ name: String) throws -> String {
        let path = try makeTemporaryDirectory(name).appendingPathComponent("stale.simtrace").path
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

    /// `simrun <arguments>` in this process over `scenarios`: status, every line, and the JSON
    /// document when `--json` was given.
    static func simrun(_ arguments: [String], _ scenarios: [Scenario]) throws -> (Int32, String, JSONValue?) {
        let console = Console(capturing: true)
        let status = SimRun.run(arguments: arguments, scenarios: scenarios, console: console)
        let lines = console.capturedLines
        let document = lines.last { $0.hasPrefix("{") }.flatMap { try? JSONValue(parsing: $0) }
        return (status, lines.joined(separator: "\n"), document)
    }

    @Test func aFixThatCancelsThePreviousTaskRemovesTheRaceAndACampaignDecides() throws {
        let trace = try Self.buggySearchTrace("cancel-fix")
        let (status, output, _) = try Self.simrun(["replay", trace, "--variant", "fixed"], [staleSearch])
        #expect(status == ExitStatus.ok, "\(output)")
        #expect(output.contains("schedule of buggy replayed on fixed: pass"), "\(output)")
        #expect(output.contains("(0 of 1 non-fifo)"), "the recorded race was not followed: \(output)")
        #expect(output.contains("race removed: the fix removes the recorded race (decision "), "\(output)")
        #expect(output.contains("went ahead of, was cancelled here (its lane ran task.sleep.cancelled instead)"))
        #expect(output.contains("instead, pct seeds 0..<500 on fixed: 0 failures"), "\(output)")

        let (jsonStatus, _, document) = try Self.simrun(
            ["replay", trace, "--variant", "fixed", "--json"], [staleSearch])
        let json = try #require(document)
        #expect(jsonStatus == ExitStatus.ok && json["exitCode"]?.intValue == 0)
        #expect(json["verdict"]?.stringValue == "pass")
        let evidence = try #require(json["raceRemoved"], "\(json)")
        #expect(evidence["reasons"]?.arrayValue?.compactMap(\.stringValue) == ["vanished"], "\(evidence)")
        #expect(evidence["cancelled"]?.boolValue == true)
        #expect(evidence["failures"]?.intValue == 0)
    }

    @Test func aGuardThatDropsStaleResultsIsTestedOnTheRecordedRace() throws {
        // Both searches still run and race: the recorded departure is followed, no campaign needed.
        let trace = try Self.buggySearchTrace("guard-fix")
        let (status, output, _) = try Self.simrun(["replay", trace, "--variant", "guarded"], [staleSearch])
        #expect(status == ExitStatus.ok, "\(output)")
        #expect(output.contains("(all 1 non-fifo)"), "\(output)")
        #expect(!output.contains("race removed"), "\(output)")
        // The bug itself on the same schedule: still fails (the recorded race taken).
        let (buggy, buggyOutput, _) = try Self.simrun(
            ["replay", trace, "--variant", "buggy", "--noise", "1"], [staleSearch])
        #expect(buggy == ExitStatus.failure, "\(buggyOutput)")
    }

    @Test func underNoiseEachFixGetsTheSameAnswer() throws {
        let trace = try Self.buggySearchTrace("noise-fix")
        let (fixed, fixedOutput, _) = try Self.simrun(
            ["replay", trace, "--variant", "fixed", "--noise", "3"], [staleSearch])
        #expect(fixed == ExitStatus.ok, "\(fixedOutput)")
        #expect(fixedOutput.contains("with 3 noise lanes: pass"), "\(fixedOutput)")
        #expect(fixedOutput.contains("was cancelled here"), "\(fixedOutput)")
        #expect(fixedOutput.contains("pct seeds 0..<500 on fixed: 0 failures"), "\(fixedOutput)")
        let (guarded, guardedOutput, _) = try Self.simrun(
            ["replay", trace, "--variant", "guarded", "--noise", "3"], [staleSearch])
        #expect(guarded == ExitStatus.ok && guardedOutput.contains("(all 1 non-fifo)"), "\(guardedOutput)")
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

    static func twoRacesTrace() throws -> String {
        let path = try makeTemporaryDirectory("two-races").appendingPathComponent("two.simtrace").path
        let plan = RunPlan.probed(scenario: twoRaces, variant: "recorded", strategy: StrategySpec(kind: .random))
        // b.one ahead of a.one, then a.one, then d.one ahead of c.one.
        let recorded = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [1, 0, 1]), strategyName: "random", to: path)
        #expect(recorded.verdict.isFailure && recorded.deviations == 2, "\(recorded.verdict) \(recorded.deviations)")
        return path
    }

    @Test func oneRaceRemovedBesideOneSimplyMissedIsInconclusive() throws {
        let trace = try Self.twoRacesTrace()
        let (status, output, _) = try Self.simrun(["replay", trace, "--variant", "mixed"], [Self.twoRaces])
        #expect(status == ExitStatus.inconclusive, "\(output)")
        #expect(!output.contains("race removed"), "\(output)")
        let (_, _, document) = try Self.simrun(["replay", trace, "--variant", "mixed", "--json"], [Self.twoRaces])
        let reasons = try #require(document?["unfollowed"]?.arrayValue).compactMap { $0["reason"]?.stringValue }
        #expect(reasons == ["missing", "never-ahead"], "\(String(describing: document))")
    }

    @Test func everyRecordedRaceRemovedIsDecidedByTheCampaign() throws {
        let trace = try Self.twoRacesTrace()
        let (status, output, document) = try Self.simrun(
            ["replay", trace, "--variant", "removed", "--json"], [Self.twoRaces])
        #expect(status == ExitStatus.ok, "\(output)")
        let reasons = try #require(document?["raceRemoved"]?["reasons"]?.arrayValue).compactMap(\.stringValue)
        #expect(reasons == ["missing", "ordered"], "\(output)")
    }
}
