import Dispatch
import SimCapture
import SimCore

/// `dispatch-group-double-leave`: a feed screen prefetches a thumbnail before it shows the feed. The
/// request enters a `DispatchGroup`; it is finished by its response or by its timeout, whichever comes
/// first, and the group's `notify` shows the feed. The timeout is armed first, on main; the response
/// arrives on the network queue at the same instant (on a device, either can land first).
///
/// Variants:
/// - `buggy`: the response checks `finished` on the network queue, then hops to main to mark it and
///   leave the group. When it checks before the timeout has run, both leave: libdispatch traps on the
///   unbalanced `dispatch_group_leave` — a crash inside libdispatch, caused by the app's ordering bug.
/// - `fixed`: the hop checks `finished` again on main, where the timeout marks it.
///
/// Oracle (`feed-shown-once`): at the end the feed was shown exactly once (a crash ends the run first).
/// Goal (`timeout-between-check-and-hop`): the timeout ran between the response's check and its hop.
public enum DispatchGroupDoubleLeave {
    /// The scenario, with variants `buggy` (default) and `fixed`.
    public static let scenario = Scenario(
        name: "dispatch-group-double-leave",
        summary: "GCD: a response and its timeout both leave a DispatchGroup; libdispatch traps on the second leave",
        variants: [
            .init("buggy", "the response checks 'finished' off main, then leaves on main: libdispatch traps on a second leave"),
            .init("fixed", "the response checks 'finished' again on main, where the timeout sets it"),
        ],
        setUp: { simulation, variant in setUp(simulation, checksOnMain: variant == "fixed") }
    )

    /// The prefetch, its flag touched on main (and, in `buggy`, read on the network queue).
    final class Prefetch: @unchecked Sendable {
        let checksOnMain: Bool
        let group = DispatchGroup()
        let network = DispatchQueue(label: "network")
        var finished = false
        var feedShown = 0
        /// Responses whose hop to main found the request finished by its timeout (the race, met).
        var lateHops = 0

        init(checksOnMain: Bool) { self.checksOnMain = checksOnMain }

        /// Starts the request (on main): the timeout first, then the request itself.
        func start() {
            group.enter()
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(50)) { self.finish("timeout") }
            network.asyncAfter(deadline: .now() + .milliseconds(50)) { self.responseArrived() }
            group.notify(queue: .main) { self.feedShown += 1 }
        }

        private func responseArrived() {
            guard !finished else { return }
            DispatchQueue.main.async {
                if self.finished { self.lateHops += 1 }
                if self.checksOnMain && self.finished { return }
                self.finish("response")
            }
        }

        /// Marks the request finished and leaves the group (on main).
        private func finish(_ by: String) {
            if by == "timeout" && finished { return }
            finished = true
            group.leave()
        }
    }

    static func setUp(_ simulation: Simulation, checksOnMain: Bool) {
        guard DispatchCapturing.requireActive(simulation) else { return }
        let prefetch = Prefetch(checksOnMain: checksOnMain)
        DispatchQueue.main.async { prefetch.start() }
        simulation.sometimes("timeout-between-check-and-hop") { prefetch.lateHops > 0 }
        simulation.atEnd("feed-shown-once") {
            prefetch.feedShown == 1 ? nil : "the feed was shown \(prefetch.feedShown) times"
        }
    }
}
