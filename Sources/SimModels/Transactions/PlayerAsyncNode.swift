import SimCore

/// An async node of Player's async-node plugin: a placeholder in a view whose content an app handler
/// supplies later, through two channels — the value its `onAsyncNode` promise resolves to (the bail
/// return) and a callback it may call any number of times (streamed content).
///
/// Facts from player-ui/player `plugins/async-node/core/src/index.ts`: resolving a view with an
/// unresolved async node starts the handler once; while it is pending the node is "in progress" and
/// a re-resolve starts no second run (PR #693, `inProgressNodes`); each callback call parses and
/// updates the node's content; when the promise resolves, the node stops being in progress and —
/// before PR #922 — the resolved value is parsed and written too, whatever the callback delivered:
/// last writer wins, so a stale value overwrites streamed content and a null one reverts the node to
/// its placeholder (`bailAfterCallback: .overwrite`). PR #922 writes the resolved value only if no
/// callback delivered content and it is not null (`.keepStreamed`).
public final class PlayerAsyncNode {
    /// What the resolved value does after the callback has delivered content.
    public enum BailAfterCallback: String, Sendable {
        /// Before PR #922: it is always written.
        case overwrite
        /// PR #922: `if (!deliveredViaCallback && result != null)`.
        case keepStreamed
    }

    /// The handler the app taps `onAsyncNode` with: it gets a callback for streamed content and a
    /// `resolve` to call once with the promise's value (nil: the promise resolved to null).
    public typealias Handler = (_ callback: @escaping (String) -> Void, _ resolve: @escaping (String?) -> Void) -> Void

    private unowned let simulation: Simulation
    private let handler: Handler

    /// The node's id, the subject of its events.
    public let id: String
    /// The version's rule for the resolved value.
    public let bailAfterCallback: BailAfterCallback
    /// The node's content; nil shows the placeholder.
    public private(set) var content: String?
    /// True while the handler's promise is pending.
    public private(set) var isInProgress = false
    /// Handler runs started.
    public private(set) var runs = 0
    /// Re-resolves that found the node in progress and started nothing (PR #693).
    public private(set) var skippedWhileInProgress = 0
    /// Every content written, in order.
    public private(set) var writes: [(channel: String, content: String?)] = []

    /// An async node `id` served by `handler`, under `bailAfterCallback`'s rule.
    public init(_ simulation: Simulation, id: String, bailAfterCallback: BailAfterCallback, handler: @escaping Handler)
    {
        self.simulation = simulation
        self.id = id
        self.bailAfterCallback = bailAfterCallback
        self.handler = handler
    }

    /// The view resolving the node: starts the handler unless content is there or a run is pending.
    public func resolve() {
        if content != nil { return }
        if isInProgress {
            skippedWhileInProgress += 1
            simulation.emit("async.skip", id, ["reason": "in-progress"])
            return
        }
        isInProgress = true
        runs += 1
        simulation.emit("async.start", id, ["run": .int(runs)])
        var deliveredViaCallback = false
        handler(
            { [weak self] streamed in
                guard let self else { return }
                deliveredViaCallback = true
                write(streamed, channel: "callback")
            },
            { [weak self] result in
                guard let self else { return }
                isInProgress = false
                if bailAfterCallback == .keepStreamed, deliveredViaCallback || result == nil {
                    simulation.emit("async.keep", id, ["result": .text(result ?? "null")])
                    return
                }
                write(result, channel: "return")
            })
    }

    private func write(_ value: String?, channel: String) {
        content = value
        writes.append((channel, value))
        simulation.emit("async.update", id, ["channel": .text(channel), "content": .text(value ?? "placeholder")])
    }
}
