import SimCore
import SimModels

/// player-ui/player commit b57d1fdc ("Guard the state hook tap against stale playerValue", after
/// PR #701's lifecycle work): the iOS `SwiftUIPlayer.Context` wrote each player state through
/// `Task { @MainActor }` with no check that the player was still loaded, so "a state event fired
/// just before unload() could have its Task run after unload() had already nilled state", writing
/// the old player's state and re-anchoring its JSContext (the JSContext leak the lifecycle tests
/// caught).
///
/// A one-screen flow: the user taps Done, which ends the flow (the state hook fires `completed`
/// and defers its write to `main`), and at the same time taps Close in the toolbar, whose handler
/// on `main` unloads the player. If the state write reaches `main` first (fifo's order), `unload`
/// clears it; if `unload` runs first, `buggy` writes the unloaded player's state after it. `fixed`
/// (b57d1fdc) skips a write whose player is no longer the loaded one.
public enum PlayerStateAfterUnload {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "player-state-after-unload",
        summary:
            "a player state deferred to main lands after unload() and re-anchors the old player"
            + " (player-ui/player commit b57d1fdc, after PR #701) — a race: fifo passes",
        variants: [
            .init("buggy", "before b57d1fdc: the deferred state write does not check the player is still loaded"),
            .init("fixed", "commit b57d1fdc: the write is skipped unless its player is the loaded one"),
        ],
        setUp: { simulation, variant in setUp(simulation, stateGuard: variant == "fixed" ? .loadedPlayer : .none) })

    static func setUp(_ simulation: Simulation, stateGuard: SwiftUIPlayerContext.StateGuard) {
        let context = SwiftUIPlayerContext(simulation, stateGuard: stateGuard)
        // The view on screen keeps the JS player alive, as the asset views' references do.
        let session = PlayerSession(
            simulation,
            states: [
                PlayerFlowState("VIEW_Done", view: "done-page", transitions: ["done": "END_Done"]),
                PlayerFlowState("END_Done", view: nil),
            ], views: ["done-page": []])
        let done = session.action("done", value: "done")
        let main = simulation.lane("main")
        simulation.post(main, simulation.symbol("player.load")) { context.load(session) }
        simulation.post(on: "user.tap", "action.tap") { done.run() }
        simulation.post(on: "user.toolbar", "toolbar.close") {
            simulation.post(main, simulation.symbol("context.unload")) { context.unload() }
        }

        simulation.atEnd("state-belongs-to-loaded-player") {
            withExtendedLifetime(session) {
                guard let state = context.state, state.player != context.loadedNumber else { return nil }
                return "state '\(state.name)' of player #\(state.player) was written after unload(): it re-anchors"
                    + " the unloaded player's JSContext"
            }
        }
        simulation.sometimes("flow completed") { session.flow.current?.viewRef == nil && session.flow.current != nil }
        simulation.sometimes("unloaded") { context.player == nil && context.loadedNumber == nil }
    }
}
