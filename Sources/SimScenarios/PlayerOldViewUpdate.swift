import SimCore
import SimModels

/// player-ui/player issue #403 ("Android: Race condition causes previous view to hydrate again"),
/// fixed by PR #471; issue #485 describes the extra update.
///
/// The user types into the first view's input and taps Continue while still editing. The action
/// commits the pending `.input` transaction first, so the data model changes and a view update is
/// queued for the *current* (first) view's instance; then the flow transitions and the second view is
/// resolved. On Android each update is hydrated on its own coroutine, so the two updates in flight
/// reach the screen in either order. `buggy` (before PR #471): the first view's instance still
/// resolves its queued update after the transition, and when its hydration finishes last the screen
/// shows the previous view although the flow is on the next one. `fixed` (PR #471): an instance the
/// flow has transitioned away from drops the update.
public enum PlayerOldViewUpdate {
    /// The binding the input writes.
    static let binding = "tmp.required"

    public static let scenario = Scenario(
        name: "player-old-view-update",
        summary:
            "after Continue, an update queued for the previous view re-renders it over the next one"
            + " (player-ui/player #403, #485; fixed by PR #471)",
        variants: [
            .init("buggy", "before PR #471: the left view's instance still sends its update"),
            .init("fixed", "PR #471: a view instance the flow has left drops its update"),
        ],
        setUp: { simulation, variant in setUp(simulation, staleUpdates: variant == "fixed" ? .drop : .deliver) })

    private final class UserScript {
        var started = false
    }

    static func setUp(_ simulation: Simulation, staleUpdates: PlayerStaleUpdatePolicy) {
        let player = PlayerSession(
            simulation, data: [binding: ""],
            states: [
                PlayerFlowState("VIEW_Start", view: "skip-validation", transitions: ["Continue": "VIEW_Navigated"]),
                PlayerFlowState("VIEW_Navigated", view: "navigated"),
            ],
            views: ["skip-validation": [binding], "navigated": []],
            staleUpdates: staleUpdates, rendering: .hydrateConcurrently)
        let input = player.input("required", binding: binding, view: "skip-validation")
        let next = player.action("continue", value: "Continue")
        let keyboard = simulation.lane("user.keyboard")
        let touch = simulation.lane("user.tap")
        let script = UserScript()

        // Unowned: the observer is kept by the model, which the simulation keeps through its oracles.
        player.views.onNativeUpdate { [unowned simulation] update in
            guard !script.started, update.viewRef == "skip-validation" else { return }
            script.started = true
            simulation.post(keyboard, simulation.symbol("input.focus")) {
                input.focus()
                simulation.post(keyboard, simulation.symbol("input.type")) {
                    input.type("x")
                    // Still editing: the reference action commits the pending input, then transitions.
                    simulation.post(touch, simulation.symbol("action.tap")) { next.commitCallbacksThenCall() }
                }
            }
        }

        simulation.atEnd("screen-shows-current-view") {
            let shown = player.views.applied.last?.viewRef ?? ""
            let current = player.views.currentView ?? ""
            return shown == current
                ? nil : "the flow is on '\(current)' but the screen shows '\(shown)' (a previous view hydrated again)"
        }
        simulation.sometimes("navigated") { player.flow.current?.name == "VIEW_Navigated" }
        simulation.sometimes("update for the left view dropped") { player.views.droppedCount > 0 }
        simulation.sometimes("left view's update reached the screen") {
            player.views.applied.contains { $0.viewRef == "skip-validation" && $0.instance == 1 && $0.reason == "data" }
        }
        player.start()
    }
}
