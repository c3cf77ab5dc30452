import SimCore
import SimModels

/// congncif/boardy PR #14, commit 9669eb8 ("make board removal detach and completion idempotent",
/// §P1-1): `removeBoard` dropped the board but left its delegate pointing at the motherboard, so a
/// callback still holding the board (an in-flight network completion) could emit output after the
/// board was gone, match the flow registered for it, and activate the next board.
///
/// A checkout: the payment board sends the charge over the network (300ms of virtual time) and, on the response,
/// hops to `main` (Boardy's main-thread rule for motherboard changes) to output "paid" and complete.
/// The motherboard's flow turns payment's output into activating the receipt board. The user may
/// tap Close on the payment screen while the request is in flight: the board completes and the
/// default flow removes it. `buggy` (Boardy before 1.63): the removed board keeps its delegate, so
/// the late response still drives the flow and the receipt appears for a payment the user closed.
/// `fixed` (9669eb8): removal detaches the board; the late output reaches no flow.
public enum BoardyRemovedBoardCompletion {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "boardy-removed-board-completion",
        summary:
            "a late network completion from a removed board drives its flow again"
            + " (congncif/boardy PR #14, commit 9669eb8) — a race: fifo passes",
        variants: [
            .init("buggy", "before Boardy 1.63: a removed board keeps its delegate"),
            .init("fixed", "commit 9669eb8: removeBoard detaches the board first"),
        ],
        setUp: { simulation, variant in setUp(simulation, detaches: variant == "fixed") })

    /// A board whose activation starts a request; the response callback holds the board strongly,
    /// as a URLSession completion does.
    final class PaymentBoard: ActivatableBoard {
        let identifier = "payment"
        weak var delegate: Motherboard?
        private unowned let simulation: Simulation
        /// Set when the response arrived.
        var responded = false

        init(_ simulation: Simulation) { self.simulation = simulation }

        /// How long the charge request takes.
        let latency = Duration.milliseconds(300)

        func activate(withOption option: BoardOption) {
            let network = simulation.lane("network")
            let main = simulation.lane("main")
            simulation.emit("net.request", identifier)
            simulation.after(latency, on: network, "net.response") { [self] in
                simulation.emit("net.response", identifier)
                simulation.post(main, simulation.symbol("payment.finish")) { [self] in
                    responded = true
                    sendOutput(.text("paid"), in: simulation)
                    complete(true, in: simulation)
                }
            }
        }

        /// The user closes the payment screen: the board completes without paying.
        func close() { complete(false, in: simulation) }
    }

    /// The receipt screen: counts its activations.
    final class ReceiptBoard: ActivatableBoard {
        let identifier = "receipt"
        weak var delegate: Motherboard?
        var activations = 0
        func activate(withOption option: BoardOption) { activations += 1 }
    }

    private final class Record {
        /// Receipt activations driven by an output of a payment board that was no longer installed.
        var fromRemovedBoard = 0
        var closedBeforeResponse = false
    }

    static func setUp(_ simulation: Simulation, detaches: Bool) {
        // A DEBUG build: every motherboard change must happen on main (the response hops there first).
        let motherboard = Motherboard(sim: simulation, detachesRemovedBoards: detaches, checksMainThread: true)
        let payment = PaymentBoard(simulation)
        let receipt = ReceiptBoard()
        motherboard.installBoard(receipt)
        motherboard.installBoard(payment)
        let record = Record()
        motherboard.registerFlow("payment→receipt", from: "payment") { [unowned motherboard] value in
            guard value.text == "paid" else { return }
            if !motherboard.isInstalled("payment") { record.fromRemovedBoard += 1 }
            motherboard.activate("receipt")
        }
        let main = simulation.lane("main")
        simulation.post(main, simulation.symbol("user.pay")) {
            motherboard.activate("payment")
            // The user taps Close just as the response comes back: events due at the same instant
            // run in an order the strategy picks.
            simulation.after(payment.latency, on: simulation.lane("user"), "user.close") {
                simulation.post(main, simulation.symbol("payment.close")) {
                    if !payment.responded { record.closedBeforeResponse = true }
                    payment.close()
                }
            }
        }

        simulation.always("removed-board-drives-no-flow") {
            record.fromRemovedBoard == 0
                ? nil : "the receipt board was activated by output from payment after payment was removed"
        }
        simulation.atEnd("motherboard-clean") {
            motherboard.isInstalled("payment") ? "payment is still installed after completing" : nil
        }
        simulation.sometimes("closed before the response") { record.closedBeforeResponse }
        simulation.sometimes("paid before close") { receipt.activations > 0 && !record.closedBeforeResponse }
    }
}
