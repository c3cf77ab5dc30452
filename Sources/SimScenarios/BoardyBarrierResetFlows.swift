import SimCore
import SimModels

/// congncif/boardy commit 7ccc9991 ("restore barrier completion flows after resetFlows"; the flow
/// accumulation it builds on is ad68c058): a barrier's completion flow was registered behind a
/// one-shot `isRegistered` latch, so once `Motherboard.resetFlows()` wiped the flow list while the
/// barrier was waiting, nothing could put it back — "the gate board completed with nobody listening
/// and every pending activation hung silently".
///
/// A shop: Checkout is behind a login barrier. The user taps Checkout; the barrier installs itself,
/// registers its completion flow for the login board and activates login, whose response arrives
/// 300ms later and hops to `main` to complete it. At the same moment the app returns to the
/// foreground and the cart screen, on `main`, refreshes its flows (`resetFlows()`, then its own
/// flows again, as a screen re-registering on reappearance does). If the login completes first,
/// the barrier releases Checkout and the refresh is harmless (fifo's order); if the refresh comes
/// first, `buggy` (before 7ccc9991) loses the completion flow: login succeeds
/// and Checkout never opens, and a second tap only joins the stranded barrier. `fixed` (7ccc9991):
/// `resetFlows()` re-registers the flow of every installed barrier.
public enum BoardyBarrierResetFlows {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "boardy-barrier-reset-flows",
        summary:
            "resetFlows() while a login barrier waits drops its completion flow: login succeeds, Checkout"
            + " never opens (congncif/boardy commit 7ccc9991; ad68c058) — a race: fifo passes",
        variants: [
            .init("buggy", "before 7ccc9991: the barrier's flow registration is latched; resetFlows strands it"),
            .init("fixed", "commit 7ccc9991: resetFlows re-registers every installed barrier's completion flow"),
        ],
        setUp: { simulation, variant in setUp(simulation, fixed: variant == "fixed") })

    /// The gate: a login screen that completes (successfully) when the user has logged in.
    final class LoginBoard: ActivatableBoard {
        let identifier = "login"
        weak var delegate: Motherboard?
        private unowned let simulation: Simulation
        /// How long logging in takes.
        static let latency = Duration.milliseconds(300)

        init(_ simulation: Simulation) { self.simulation = simulation }

        func activate(withOption option: BoardOption) {
            simulation.emit("login.present", identifier)
            // The login request's response arrives on a network thread and hops to main to finish.
            simulation.after(Self.latency, on: simulation.lane("network"), "login.response") { [self] in
                simulation.post(simulation.lane("main"), simulation.symbol("login.finish")) { [self] in
                    simulation.emit("login.success", identifier)
                    complete(true, in: simulation)
                }
            }
        }
    }

    /// A board that records that it was opened.
    final class ScreenBoard: ActivatableBoard {
        let identifier: String
        weak var delegate: Motherboard?
        private unowned let simulation: Simulation
        private(set) var opened = 0

        init(_ identifier: String, _ simulation: Simulation) {
            self.identifier = identifier
            self.simulation = simulation
        }

        func activate(withOption option: BoardOption) {
            opened += 1
            simulation.emit("screen.open", identifier, ["times": .int(opened)])
        }
    }

    /// Whether a refresh landed while the barrier was waiting.
    final class Probe {
        var resetWhileWaiting = false
    }

    static func setUp(_ simulation: Simulation, fixed: Bool) {
        let probe = Probe()
        let main = simulation.lane("main")
        let motherboard = Motherboard("shop", sim: simulation, restoresBarrierFlows: fixed)
        let login = LoginBoard(simulation)
        let checkout = ScreenBoard("checkout", simulation)
        motherboard.registerProducer("login") { login }
        motherboard.installBoard(checkout)
        let barrier = ActivationBarrierBoard(
            gate: "login", owner: motherboard, sim: simulation, registration: fixed ? .live : .latched)
        // The cart screen's own flows, registered again on every refresh.
        let registerCartFlows = {
            motherboard.registerFlow("cart.output", from: "checkout") { _ in }
        }
        registerCartFlows()

        simulation.post(main, simulation.symbol("user.checkout")) {
            barrier.request("checkout")
            // At the same instant the app comes back to the foreground and the cart screen, on main,
            // resets and re-registers its flows: two threads hop to main, in either order.
            simulation.after(LoginBoard.latency, on: simulation.lane("app.lifecycle"), "app.willEnterForeground") {
                simulation.post(main, simulation.symbol("cart.refreshFlows")) {
                    if barrier.isActive { probe.resetWhileWaiting = true }
                    motherboard.resetFlows()
                    registerCartFlows()
                }
            }
        }

        simulation.atEnd("checkout-opens-after-login") {
            guard checkout.opened == 0, !motherboard.isInstalled("login"), barrier.pendingCount > 0 else { return nil }
            return "login succeeded but the pending Checkout never opened: the barrier's completion flow"
                + " was wiped by resetFlows() and not restored"
        }
        simulation.sometimes("flows reset while the barrier waited") { probe.resetWhileWaiting }
        simulation.sometimes("checkout opened") { checkout.opened > 0 }
    }
}
