import Foundation
import SimCapture
import SimCore
import SimScenarios
import SimTestSupport
import SimTesting
import Testing

/// `explore(…, carriers: .preemptLocks)`: SimTesting's typed form of `--preempt`, from outside.
@Suite struct PreemptingExplorationTests {
    @Test func theLostCancellationIsFoundOnlyWithPreemptionAndItsTraceSaysSo() throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        let directory = try makeTemporaryDirectory("preempt-explore").path
        let plain = explore(
            NSLockLostCancel.scenario, variant: "buggy", strategy: "pct", seeds: 0..<40, failureDirectory: directory)
        #expect(plain.failure == nil)
        var found: Exploration?
        withKnownIssue {
            found = explore(
                NSLockLostCancel.scenario, variant: "buggy", strategy: "pct", seeds: 0..<40,
                failureDirectory: directory, carriers: .preemptLocks)
        }
        let failure = try #require(found?.failure, "not found with carriers: .preemptLocks")
        // The saved trace replays under preemption (its header carries the mode) and passes on fixed.
        let corpus = TraceCorpus(directory: directory, scenarios: [NSLockLostCancel.scenario])
        let trace = try #require(corpus.traces.first { $0.path == failure.tracePath })
        #expect(corpus.replay(trace))
        #expect(corpus.replayOnFixed(trace))
    }
}
