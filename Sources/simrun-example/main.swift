// A user's own executable: their scenario, written with the models, run by simrun's whole command
// tree (`simrun-example list`, `fuzz`, `replay`, `shrink`, `show`, `explain`, `export`).
import SimCore
import SimModels
import SimRunKit

/// A checkout form: the user types a promo code, then presses Done on the keyboard and taps Pay at
/// the same moment. Pay submits the order with the promo code the data model holds.
///
/// `buggy`: Pay calls the action directly, so when the tap lands before the keyboard's Done the
/// order leaves with the promo code still in the input's pending transaction. `fixed`: Pay uses
/// `commitCallbacksThenCall`, saving the pending input first.
enum CheckoutPromoCode {
    static let promo = "SAVE10"
    static let binding = "order.promo"

    static let scenario = Scenario(
        name: "checkout-promo-code",
        summary: "an order is submitted without the promo code the user just typed",
        variants: [
            .init("buggy", "Pay runs the transition directly"),
            .init("fixed", "Pay commits pending input transactions first (commitCallbacksThenCall)"),
        ]
    ) { simulation, variant in
        let player = PlayerSession(
            simulation, data: [binding: ""],
            states: [
                PlayerFlowState("CHECKOUT", view: "checkout", transitions: ["pay": "DONE"]),
                PlayerFlowState("DONE", view: nil),
            ],
            views: ["checkout": [binding]])
        let input = player.input("promo", binding: binding)
        let pay = player.action("pay", value: "pay")
        let keyboard = simulation.lane("user.keyboard")
        let touch = simulation.lane("user.tap")

        // The order leaves when the flow reaches DONE, with what the data model holds then.
        let order = SubmittedOrder()
        player.flow.onTransition { [unowned simulation] _, state in
            guard state.name == "DONE" else { return }
            order.promo = player.data.get(binding)
            simulation.emit("order.submit", "checkout", ["promo": .text(order.promo ?? "")])
        }

        // The user, on a virtual clock: focus, one key every 100ms, then Done and Pay together
        // (timers due at the same instant run in an order the strategy chooses).
        simulation.after(.milliseconds(50), on: keyboard, "input.focus") { input.focus() }
        for (index, character) in promo.enumerated() {
            simulation.after(.milliseconds(100 * (index + 1)), on: keyboard, "input.type") {
                input.type(String(character))
            }
        }
        let end = Duration.milliseconds(100 * (promo.count + 1))
        simulation.after(end, on: keyboard, "input.blur") { input.blur() }
        simulation.after(end, on: touch, "action.tap") {
            if variant == "fixed" { pay.commitCallbacksThenCall() } else { pay.run() }
        }

        simulation.atEnd("order-uses-typed-promo") {
            guard let sent = order.promo else { return "the order was never submitted" }
            return sent == promo ? nil : "the order was submitted with promo '\(sent)', the user typed '\(promo)'"
        }
        simulation.sometimes("paid before done") { order.promo != nil && input.isEditing }
        player.start()
    }
}

/// What left with the order (one simulation, one thread).
final class SubmittedOrder {
    var promo: String?
}

// AutosaveDraft.swift, beside this file, is the async example (see "Your own async code" below);
// ActivityStamps.swift reads Date(), ContinuousClock and DispatchTime inside a run (virtual time).
SimRun.main(scenarios: [CheckoutPromoCode.scenario, AutosaveDraft.scenario, ActivityStamps.scenario])
