import SimCore
import SimModels

/// The flagship Player bug: text typed into an input is lost when an action navigates before the
/// input's pending `.input` transaction is committed.
///
/// The user focuses the name input, types, then presses return (blur) and taps Next; the blur and
/// the tap are separate user events on their own lanes, so either may come first. Navigating
/// resolves the next view with the binding's saved value and the native side applies it as a later
/// `main` job, copying that value into the field. `buggy` runs the action directly; `fixed` uses
/// `commitCallbacksThenCall`, committing `.input` before the transition.
public enum LostInputNavigation {
    /// What the user types.
    public static let typed = "Ada"
    /// The binding the input writes.
    public static let binding = "user.name"

    public static let scenario = Scenario(
        name: "lost-input-navigation",
        summary: "typed text is wiped when an action navigates before the input's transaction commits",
        variants: [
            .init("buggy", "the action calls run directly"),
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
            views: ["form": [binding], "review": [binding]])
        let input = player.input("name", binding: binding)
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
            guard player.flow.current?.name == "VIEW_2" else { return "the flow never navigated to VIEW_2" }
            let saved = player.data.get(binding)
            return saved == typed ? nil : "after navigation \(binding) is '\(saved)', but the user typed '\(typed)'"
        }
        simulation.sometimes("navigated") { player.flow.current?.name == "VIEW_2" }
        simulation.sometimes("blur before tap")
        simulation.sometimes("tap before blur")
        simulation.sometimes("stale view update after navigation") {
            player.views.applied.contains { $0.viewRef == "review" && $0.value(of: binding) != typed }
        }

        player.start()
    }
}
