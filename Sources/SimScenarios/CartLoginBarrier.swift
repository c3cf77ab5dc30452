import SimCore
import SimModels

/// `cart-login-barrier`: two add-to-cart taps wait on the login barrier; one of them is lost.
///
/// Grounded in congncif/Boardy:
/// - `Boardy/ComponentKit/BarrierBoard.swift`: `.wait` appends with an async barrier block;
///   `.overcome` reads the waiters with a sync block, runs them, sends the value, and only then
///   clears with another async block and completes. A `.wait` enqueued between that read and that
///   clear is cleared without running; a `.wait` after the completion lands on a new barrier.
/// - `Boardy/ComponentKit/TaskBoard.swift`: one task at a time, a second activation is dropped; and
///   "the handlers run wherever the completion was delivered from. Hop to the main queue yourself".
/// - The add-to-cart flow is the one in Boardy's ComponentKit guide (seed `boardy-task-boards.txt`):
///   check the current user; if none, `.wait` on the AuthUser barrier and activate Authenticate, whose
///   flow overcomes the barrier.
///
/// `buggy`: completions are used where they are delivered: the login's on the network thread, so the
/// overcome (read, run waiters, clear) runs there, and the user check's on the session store's
/// callback queue, so the second tap's `.wait` is sent from there. It can land between the read and
/// the clear and is lost, or land on a new barrier while the login board, still finishing, drops the
/// activation that would overcome it. `fixed`: both completions hop to main first, as TaskBoard's
/// documentation asks ("Hop to the main queue yourself") and as Boardy requires for motherboard
/// mutations, so an overcome runs whole between two main-thread jobs and no wait can land inside it.
public enum CartLoginBarrier {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "cart-login-barrier",
        summary:
            "an add-to-cart waiting on the login barrier is lost when its wait lands mid-overcome"
            + " — a race: fifo passes",
        variants: [
            .init("buggy", "task completions handled on the threads that deliver them"),
            .init("fixed", "task completions hopped to main before the boards handle them"),
        ]
    ) { sim, variant in
        CartLoginApp(sim: sim, deliversOnMain: variant == "fixed").start()
    }
}

/// The app side of the scenario: a session, a cart, and the boards of the add-to-cart flow. The
/// oracles hold it (strongly) for the run; jobs refer to it unowned.
final class CartLoginApp {
    unowned let sim: Simulation
    let deliversOnMain: Bool
    let motherboard: Motherboard
    var user: String?
    var cart: [String] = []
    var taps: [String] = []
    /// Every AuthUser barrier built, in order (a new one after each overcome).
    var barriers: [BarrierBoard] = []

    init(sim: Simulation, deliversOnMain: Bool) {
        self.sim = sim
        self.deliversOnMain = deliversOnMain
        self.motherboard = Motherboard(sim: sim)
    }

    func start() {
        let sim = self.sim
        let mb = motherboard
        mb.registerProducer("authUser") { [unowned self] in
            let barrier = BarrierBoard("authUser", sim: sim)
            barriers.append(barrier)
            return barrier
        }
        mb.registerProducer("authenticate") { [unowned self] in
            TaskBoard("authenticate", sim: sim) { [unowned self] _, done in
                // The login screen and its request take 300 ms; the token is stored on the network thread.
                sim.after(.milliseconds(300), on: sim.lane("network"), "login.reply") { [unowned self] in
                    user = "alice"
                    sim.emit("session.login", "alice")
                    if deliversOnMain {
                        sim.post(on: "main", "login.deliver") { done(.success(.text("alice"))) }
                    } else {
                        done(.success(.text("alice")))
                    }
                }
            }
        }
        mb.registerProducer("currentUser") { [unowned self] in
            BlockTaskBoard("currentUser", sim: sim) { [unowned self] _, done in
                // The session store is read on its own queue and answers on its callback queue;
                // BlockTaskBoard runs the handlers wherever the completion is delivered.
                sim.post(on: "db", "session.read") { [unowned self] in
                    let seen = user
                    let replyLane = deliversOnMain ? "main" : "db.callback"
                    sim.post(on: replyLane, "session.reply") { done(.success(seen.map { .text($0) } ?? .none)) }
                }
            }
        }
        mb.registerFlow("login.overcome", from: "authenticate") { value in
            mb.activate("authUser", .barrier(.overcome(value)))
        }

        sim.after(.zero, on: sim.lane("main"), "tap.cart") { [unowned self] in addToCart("shoes") }
        let secondTap = [100, 300, 500][sim.choose(3, "second.tap.ms")]
        sim.after(.milliseconds(Int64(secondTap)), on: sim.lane("main"), "tap.cart") { [unowned self] in
            addToCart("socks")
        }

        sim.always("added-at-most-once") { [self] in
            let duplicates = taps.filter { item in cart.filter { $0 == item }.count > 1 }
            return duplicates.isEmpty ? nil : "added twice: \(duplicates.joined(separator: ", "))"
        }
        sim.atEnd("every-tap-added") { [self] in
            let missing = taps.filter { !cart.contains($0) }
            guard !missing.isEmpty else { return nil }
            let cleared = barriers.reduce(0) { $0 + $1.lost }
            let stranded = barriers.reduce(0) { $0 + $1.waiterCount }
            return "lost add-to-cart: \(missing.joined(separator: ", ")) (cart: \(cart); waits cleared mid-overcome: "
                + "\(cleared), waits left on a barrier nobody overcomes: \(stranded))"
        }
        sim.sometimes("second-tap-waited")
        sim.sometimes("second-tap-saw-user")
        sim.sometimes("login-activation-dropped") { [self] in
            (motherboard.board("authenticate") as? TaskBoard)?.dropped ?? 0 > 0
        }
        sim.sometimes("both-served-by-one-overcome") { [self] in
            cart.count == 2 && (motherboard.board("authenticate") as? TaskBoard) == nil && user != nil
        }
    }

    private func addToCart(_ item: String) {
        taps.append(item)
        sim.emit("cart.tap", item)
        let parameter = BlockTaskParameter().onSuccess { [unowned self] found in
            if found != .none {
                if item == "socks" { sim.reach("second-tap-saw-user") }
                add(item)
            } else {
                if item == "socks" { sim.reach("second-tap-waited") }
                motherboard.activate("authUser", .barrier(.wait { [unowned self] _ in add(item) }))
                motherboard.activate("authenticate")
            }
        }
        motherboard.activate("currentUser", .block(parameter))
    }

    private func add(_ item: String) {
        cart.append(item)
        sim.emit("cart.add", item, ["count": .int(cart.count)])
    }
}
