import SimCore
import SimModels
import SimTestSupport
import Testing

/// player-ui/player `plugins/async-node/core/src/index.ts`: the callback and the resolved value both
/// write the node (before PR #922, last writer wins; after, the resolved value is written only if
/// nothing was streamed and it is not null), and a node in progress starts no second run (PR #693).
@Suite struct PlayerAsyncNodeTests {
    /// Streams `streamed` then resolves with `result`, all in one job, and returns what the node shows.
    private func run(_ rule: PlayerAsyncNode.BailAfterCallback, streamed: String?, result: String?) -> PlayerAsyncNode {
        let sim = Simulation(seed: 0, strategy: FIFOStrategy())
        let node = PlayerAsyncNode(sim, id: "chat", bailAfterCallback: rule) { callback, resolve in
            sim.post(on: "js", "deliver") {
                if let streamed { callback(streamed) }
                resolve(result)
            }
        }
        sim.post(on: "js", "resolve") {
            node.resolve()
            node.resolve()  // re-resolved while pending: no second run
        }
        _ = sim.run()
        return node
    }

    @Test func aNodeInProgressStartsNoSecondRun() {
        let node = run(.overwrite, streamed: nil, result: "rows")
        #expect(node.runs == 1)
        #expect(node.skippedWhileInProgress == 1)
        #expect(node.content == "rows")
        #expect(!node.isInProgress)
    }

    @Test func beforePR922TheResolvedValueOverwritesStreamedContent() {
        #expect(run(.overwrite, streamed: "fresh", result: "stale").content == "stale")
        #expect(run(.overwrite, streamed: "fresh", result: nil).content == nil, "reverted to the placeholder")
    }

    @Test func afterPR922StreamedContentWinsAndNullNeverReverts() {
        #expect(run(.keepStreamed, streamed: "fresh", result: "stale").content == "fresh")
        #expect(run(.keepStreamed, streamed: "fresh", result: nil).content == "fresh")
        #expect(run(.keepStreamed, streamed: nil, result: "one-shot").content == "one-shot")
        #expect(run(.keepStreamed, streamed: nil, result: nil).content == nil)
    }
}
