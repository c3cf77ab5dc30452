import SimCore
import SimModels

/// The flagship Player bug: text typed into an input is wiped when the user taps Next before the
/// input's pending `.input` transaction is committed.
///
/// The user focuses the name input, types, then presses return (blur) and taps Next; the blur and
/// the tap are separate user events on their own lanes, so either may come first. The name is
/// required. If the tap runs first (`buggy`: the action calls `run` directly), navigation
/// validation reads the data model, which does not hold the typed text yet: it blocks the
/// transition and re-renders the *current* view from the data model (player-ui/player
/// `core/player/src/player.ts`: `skipTransition` → `validateView("navigation")` →
/// `currentView.update(bindings)`); when that update reaches the screen before the blur saves the
/// text, the input's data sink replaces the typed text with the empty binding. `fixed` uses
/// `commitCallbacksThenCall` (player-ui/player
/// `plugins/reference-assets/swiftui/Sources/SwiftUI/ActionAsset.swift`, the fix the
/// SwiftUIPendingTransactionPlugin docs describe for exactly this symptom): the pending `.input` is
/// committed first, validation passes and the flow navigates.
///
/// In the app this is deterministic, not a race: a UIKit button tap does not end editing, so a user
/// who taps Next without pressing return loses the text every time. Here return (blur) and the tap
/// are two user events in either order; under fifo return comes first and the run passes.
public enum LostInputNavigation {
    /// What the user types.
    public static let typed = "Ada"
    /// The binding the input writes.
    public static let binding = "user.name"

    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "lost-input-navigation",
        summary:
            "typed text is wiped when Next's validation blocks navigation and re-renders the form"
            + " before the input's transaction commits (player-ui/player player.ts skipTransition)"
            + " — deterministic when Next is tapped while editing; fifo presses return first",
        variants: [
            .init("buggy", "the action calls run directly: validation sees the uncommitted binding"),
            .init("fixed", "the action calls commitCallbacksThenCall: commit .input, then run"),
        ],
        setUp: { simulation, variant in setUp(simulation, fixed: variant == "fixed") })

    private final class UserScript {
        var started = false
        var tapped = false
        var blurred = false
    }

    static func setUp(_ simulation: Simulation, fixed: Bool) {
        let player = PlayerSession(
            simulation, data: [binding: ""],
            states: [
                PlayerFlowState("VIEW_1", view: "form", transitions: ["next": "VIEW_2"]),
                PlayerFlowState("VIEW_2", view: "review", transitions: ["back": "VIEW_1"]),
            ],
            views: ["form": [binding], "review": [binding]], required: ["form": [binding]])
        let input = player.input("name", binding: binding, view: "form")
        let next = player.action("next", value: "next")
        let keyboard = simulation.lane("user.keyboard")
        let touch = simulation.lane("user.tap")
        let script = UserScript()

        // The user can only act once the form is on screen.
        // Unowned: the observer is kept by the model, which the simulation keeps through its oracles.
        player.views.onNativeUpdate { [unowned simulation] update in
            guard !script.started, update.viewRef == "form" else { return }
            script.started = true
            simulation.post(keyboard, simulation.symbol("input.focus")) { input.focus() }
            let characters = typed.map(String.init)
            for (index, character) in characters.enumerated() {
                simulation.post(keyboard, simulation.symbol("input.type")) {
                    input.type(character)
                    guard index == characters.count - 1 else { return }
                    // Done typing: return (blur) and Next (tap) race as two user events.
                    simulation.post(keyboard, simulation.symbol("input.blur")) {
                        script.blurred = true
                        if !script.tapped { simulation.reach("blur before tap") }
                        input.blur()
                    }
                    simulation.post(touch, simulation.symbol("action.tap")) {
                        script.tapped = true
                        if !script.blurred { simulation.reach("tap before blur") }
                        if fixed { next.commitCallbacksThenCall() } else { next.run() }
                    }
                }
            }
        }

        simulation.always("typed-text-kept") {
            guard let lost = input.overwrites.first else { return nil }
            return "a view update replaced unsaved typed text '\(lost.typed)' with '\(lost.with)'"
        }
        simulation.atEnd("binding-holds-typed-text") {
            let saved = player.data.get(binding)
            return saved == typed ? nil : "\(binding) is '\(saved)', but the user typed '\(typed)'"
        }
        simulation.sometimes("navigated") { player.flow.current?.name == "VIEW_2" }
        simulation.sometimes("blur before tap")
        simulation.sometimes("tap before blur")
        simulation.sometimes("validation blocked navigation") { player.flow.skippedCount > 0 }

        player.start()
    }
}
