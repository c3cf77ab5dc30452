import Foundation
import LedgerFixture
import SimCore
import SimEngine
import SimTestSupport
import SimTesting
import Testing

/// The fix check from SimTesting (issue #43): a user's `@MainActor` search screen whose fix cancels
/// the previous task passes `replayOnFixed` with the engine's race-removed evidence, as
/// `simrun replay --variant fixed` does (one verdict, decided in SimEngine).
@Suite struct FixCheckCorpusTests {
    @Test func aFixThatCancelsThePreviousTaskPassesTheCorpusWithTheRaceRemovedEvidence() throws {
        let directory = try makeTemporaryDirectory("fix-check-corpus").path
        withKnownIssue {
            _ = explore(staleSearch, variant: "buggy", strategy: "random", seeds: 0..<100, failureDirectory: directory)
        }
        let corpus = TraceCorpus(directory: directory, scenarios: [staleSearch])
        let trace = try #require(corpus.traces.first { !$0.isMissing }, "explore saved no failing trace")
        #expect(corpus.replayOnFixed(trace))
        #expect(corpus.replayOnFixed(trace, variant: "guarded"))

        let report = try corpus.verdict(of: trace, variant: "fixed")
        guard case .pass(let evidence?) = report.verdict else {
            Issue.record("expected a pass decided by the race-removed campaign: \(report.verdict)")
            return
        }
        #expect(evidence.failures == 0 && evidence.seeds == TraceReplay.raceRemovedSeeds)
        #expect(evidence.unfollowed.map(\.reason) == ["vanished"])
        #expect(evidence.unfollowed.allSatisfy { $0.cancelled })
        // A guard keeps the race: the replay followed it, no campaign stood in.
        let guarded = try corpus.verdict(of: trace, variant: "guarded")
        #expect(guarded.verdict == .pass(raceRemoved: nil), "\(guarded.verdict)")
        #expect(guarded.tally.isConclusive)
    }
}
