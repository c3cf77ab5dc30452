import SimCore

/// The JavaScript engine under Player, as the native side sees it: native code calls into JS
/// (`call`), and microtasks queued during a call run when the outermost call returns, first in
/// first out, before control goes back to any other native event on any lane.
///
/// That is JavaScriptCore's rule (its microtask queue drains when the last API entry into the VM
/// returns), and it decides when Player's batched view update runs: `queueUpdate` queues a microtask
/// (player-ui/player `core/player/src/controllers/view/controller.ts`), so data set by one native
/// call (an input's `set()`) is resolved at the end of that call, against the view current then —
/// before a transition the native side requests in a later call (issue #485 counts that update).
/// There is no scheduling choice here, so microtasks are not jobs: they run inside the job whose
/// call queued them, each recorded as a `js.microtask` event.
public final class PlayerJSContext {
    private unowned let simulation: Simulation
    private var depth = 0
    private var queue: [(label: String, body: () -> Void)] = []

    /// A context with an empty microtask queue.
    public init(_ simulation: Simulation) { self.simulation = simulation }

    /// Microtasks queued and not yet run (zero between native events).
    public var pendingMicrotasks: Int { queue.count }

    /// True while native code is inside a call into JS (or a microtask runs).
    public var isInCall: Bool { depth > 0 }

    /// Runs `body` as a native→JS call; when the outermost call returns, the microtask queue drains.
    @discardableResult
    public func call<T>(_ body: () -> T) -> T {
        depth += 1
        let result = body()
        depth -= 1
        if depth == 0 { drain() }
        return result
    }

    /// Queues `body` to run when the current call returns (at once when no call is running:
    /// queueing from native code is itself a call).
    public func queueMicrotask(_ label: String, _ body: @escaping () -> Void) {
        queue.append((label, body))
        if depth == 0 { drain() }
    }

    private func drain() {
        // Microtasks queued by a microtask run in the same drain, after those already queued.
        while !queue.isEmpty {
            let (label, body) = queue.removeFirst()
            depth += 1
            simulation.emit("js.microtask", label)
            body()
            depth -= 1
        }
    }
}
