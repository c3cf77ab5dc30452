import SimCore
import SimModels

/// player-ui/player issue #403 ("Android: Race condition causes previous view to hydrate again");
/// issue #485 describes the extra update.
///
/// The user types into the first view's input and taps Continue while still editing. The action
/// commits the pending `.input` transaction first: the input's `set()` changes the data model, and
/// the microtask it queues runs when that call returns, resolving the *current* (first) view — so
/// the old view's update is sent before the transition (#485: "1 view update for the new view being
/// transitioned into, the other view update being the view that was transitioned from"). Then
/// `run` transitions and the second view is resolved. On Android each update is hydrated on its own
/// coroutine, so the two updates reach the screen in either order: in the order sent (fifo) all is
/// well, and only when the old view's hydration finishes last does the screen show the previous view
/// although the flow is on the next one — a race ("you might have to try this a few times", #403).
/// `fixed` is what Android ships: `PlayerFragment.handleAssetUpdate` cancels the previous update's
/// rendering job when a new one arrives. `fixed-drop-stale` is #485's proposal: the native side
/// drops an update of a view the flow has left.
public enum PlayerOldViewUpdate {
    /// The binding the input writes.
    static let binding = "tmp.required"

    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "player-old-view-update",
        summary:
            "after Continue, the previous view's update hydrates last and re-renders it over the next one"
            + " (player-ui/player #403, #485) — a race: fifo passes",
        variants: [
            .init("buggy", "Android hydrates each update on its own coroutine: the two finish in either order"),
            .init("fixed", "Android PlayerFragment: a new update cancels the previous one's rendering job"),
            .init("fixed-drop-stale", "#485's proposal: drop an update of a view the flow has left"),
        ],
        setUp: { simulation, variant in
            switch variant {
            case "fixed": setUp(simulation, staleUpdates: .deliver, rendering: .cancelPreviousRender)
            case "fixed-drop-stale": setUp(simulation, staleUpdates: .drop, rendering: .hydrateConcurrently)
            default: setUp(simulation, staleUpdates: .deliver, rendering: .hydrateConcurrently)
            }
        })

    private final class UserScript {
        var started = false
    }

    static func setUp(
        _ simulation: Simulation, staleUpdates: PlayerStaleUpdatePolicy, rendering: PlayerNativeRendering
    ) {
        let player = PlayerSession(
            simulation, data: [binding: ""],
            states: [
                PlayerFlowState("VIEW_Start", view: "skip-validation", transitions: ["Continue": "VIEW_Navigated"]),
                PlayerFlowState("VIEW_Navigated", view: "navigated"),
            ],
            views: ["skip-validation": [binding], "navigated": []],
            staleUpdates: staleUpdates, rendering: rendering)
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
        simulation.sometimes("left view's update reached the screen") {
            player.views.applied.contains { $0.viewRef == "skip-validation" && $0.instance == 1 && $0.reason == "data" }
        }
        player.start()
    }
}
