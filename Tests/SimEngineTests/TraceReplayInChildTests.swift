import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// `TraceReplay.decide(_:catalog:isolation:)` on traces whose runs trap, cut short, or name what
/// the catalog does not know: a verdict (or a typed refusal) every time, never the end of the host.
@Suite struct TraceReplayInChildTests {
    /// A crash trace cut short: the prefix matched and the replay crashed past the cut, so the
    /// verdict is `inconclusive` (truncated), never `identical` nor a signal.
    @Test func aTruncatedCrashTraceIsInconclusive() throws {
        let directory = try makeTemporaryDirectory("replay-child")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try CrashFixtures.cut(CrashFixtures.crashTrace, 1000, to: directory, "t.simtrace")
        let report = try CrashFixtures.replay(cut)
        guard case .inconclusive(.truncated) = report.verdict else {
            Issue.record("a cut crash trace: \(report.verdict)")
            return
        }
        #expect(report.outcome.isCrash, "the replay crashed past the cut: \(report.outcome)")
        #expect(report.recordingIsTruncated)
    }

    /// Under other noise the schedule is followed by identity and the crash happens again: `crashed`.
    @Test func aCrashThatHappensAgainUnderOtherNoiseIsCrashed() throws {
        let report = try CrashFixtures.replay(CrashFixtures.crashTrace, noise: 2)
        #expect(report.verdict.name == "crashed", "\(report.verdict)")
        #expect(CrashFixtures.crashMessage(report.verdict).contains("Reentrant updates are not supported"))
        #expect(report.noise == 2 && report.onOtherVariant)
    }

    /// A truncated trace never passes on the fix, and cut on its recorded variant is inconclusive.
    @Test func aTruncatedTraceNeverPassesOnTheFix() throws {
        let directory = try makeTemporaryDirectory("replay-child")
        defer { try? FileManager.default.removeItem(at: directory) }
        let onFix = try CrashFixtures.replay(
            try CrashFixtures.cut(CrashFixtures.lostInput, 200, to: directory, "g.simtrace"), variant: "fixed")
        guard case .inconclusive(.truncated) = onFix.verdict else {
            Issue.record("a truncated trace on the fix: \(onFix.verdict)")
            return
        }
        let same = try CrashFixtures.replay(try CrashFixtures.cut(CrashFixtures.lostInput, 824, to: directory, "u.simtrace"))
        #expect(same.verdict.name == "inconclusive", "\(same.verdict)")
    }

    /// A header naming a variant or strategy the scenario does not have is a bad trace (65 in the
    /// command line), on the recorded variant and on another, here and in a child.
    @Test func aTraceNamingAnUnknownRecordedVariantOrStrategyIsBad() throws {
        let directory = try makeTemporaryDirectory("replay-child")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (label, edit) in [
            ("variant", { (header: inout TraceHeader) in header.variant = "no-such-variant" }),
            ("strategy", { (header: inout TraceHeader) in header.strategy = "bogus:x=y" }),
        ] as [(String, (inout TraceHeader) -> Void)] {
            let path = directory.appendingPathComponent("\(label).simtrace").path
            let plan = RunPlan.probed(scenario: CounterRace.scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
            var header = TraceHeader(
                toolVersion: "test", scenario: "counter-race", variant: "buggy", seed: 1, strategy: "random",
                options: [])
            edit(&header)
            let writer = try TraceWriter(path: path, header: header)
            let result = plan.run(seed: 1, strategy: plan.makeStrategy(), sink: writer)
            try writer.finish(Recorder.footer(for: result))
            for variant in [nil, "fixed"] as [String?] {
                for isolation in [Isolation.inProcess, SimrunChildren.isolation] {
                    let request = ReplayRequest(trace: path, variant: variant)
                    do {
                        let report = try TraceReplay.decide(request, catalog: CrashFixtures.catalog, isolation: isolation)
                        Issue.record("\(label) \(variant ?? "recorded"): replayed to \(report.verdict)")
                    } catch {
                        #expect(error.kind == .badTrace, "\(label) \(variant ?? "recorded"): \(error)")
                    }
                }
            }
        }
    }
}
