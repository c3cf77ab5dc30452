import SimCore
import SimModels

/// player-ui/player PR #922 ("fix(async-node): preserve streamed async updates over stale hook
/// results"): the async-node plugin wrote a node's content from both the handler's callback and its
/// promise's resolved value, with no coordination — last writer wins. "Content streamed via the
/// callback is dropped — intermittently, depending on whether the promise resolution lands before
/// or after the callback push."
///
/// A chat view's async node: the app's handler starts a request whose response (the promise) carries
/// the first rows, while the server streams the complete rows (a REPLACE_AT_COMPLETE adding the action
/// row) through the callback. Both arrive at the same instant on different threads and hop to the JS
/// thread in either order. When the stream lands first, `buggy` overwrites it with the response's
/// stale rows, and `buggy-empty` (a handler that streams everything and resolves with null) reverts
/// the node to its placeholder. `fixed` (PR #922) keeps streamed content. While the handler is
/// pending, a data change re-resolves the view; the node is in progress and starts no second run
/// (PR #693).
public enum PlayerAsyncNodeLastWriter {
    /// What the stream delivers last: the complete rows.
    static let streamed = "rows 1-2 + action row"

    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "player-async-node-last-writer",
        summary:
            "an async node's stale or null promise result overwrites the content its callback streamed"
            + " (player-ui/player PR #922; PR #693) — a race: fifo passes",
        variants: [
            .init("buggy", "before PR #922: the promise's stale rows are written after the streamed ones"),
            .init("buggy-empty", "before PR #922: a null promise result reverts the node to its placeholder"),
            .init("fixed", "PR #922: the resolved value is written only if nothing was streamed and it is not null"),
        ],
        setUp: { simulation, variant in
            setUp(
                simulation, rule: variant == "fixed" ? .keepStreamed : .overwrite,
                resolvesWith: variant == "buggy-empty" ? nil : "rows 1-2")
        })

    static func setUp(_ simulation: Simulation, rule: PlayerAsyncNode.BailAfterCallback, resolvesWith: String?) {
        let js = simulation.lane("js")
        let node = PlayerAsyncNode(simulation, id: "chat", bailAfterCallback: rule) { callback, resolve in
            // The response and the stream arrive together; each hops to the JS thread.
            simulation.after(.milliseconds(200), on: simulation.lane("network"), "net.response") {
                simulation.post(js, simulation.symbol("promise.resolve")) { resolve(resolvesWith) }
            }
            simulation.after(.milliseconds(200), on: simulation.lane("socket"), "socket.message") {
                simulation.post(js, simulation.symbol("stream.push")) { callback(streamed) }
            }
        }
        simulation.post(js, simulation.symbol("view.resolve")) { node.resolve() }
        // A data change re-resolves the view while the handler is pending (PR #693: no second run).
        simulation.after(.milliseconds(100), on: js, "view.resolve") { node.resolve() }

        simulation.atEnd("streamed-content-shown") {
            node.content == streamed
                ? nil
                : "the node shows '\(node.content ?? "its placeholder")' but the stream delivered '\(streamed)'"
        }
        simulation.always("one-handler-run") { node.runs > 1 ? "the handler ran \(node.runs) times" : nil }
        simulation.sometimes("re-resolve skipped while in progress") { node.skippedWhileInProgress > 0 }
        simulation.sometimes("streamed before the promise resolved") {
            node.writes.first?.channel == "callback" && node.isInProgress
        }
    }
}
