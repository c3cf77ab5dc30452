import SimCore

/// Player's view controller plus the native side that applies its updates.
///
/// Entering a view resolves it at once (inside the transition). Data changes are batched: the first
/// change queues ONE microtask job and later changes join it, as Player's `queueUpdate` does with
/// `queueMicrotask`. The microtask lane drains before `main`. Every resolved view reaches the native
/// side as a separate `main` job (`view.update`), which is where assets copy values in.
public final class PlayerViewController {
    private unowned let simulation: Simulation
    private let data: PlayerDataModel
    private let views: [String: [String]]
    private let microtask: LaneID
    private let main: LaneID
    private var pendingBindings: [String]?
    private var nativeObservers: [(PlayerViewUpdate) -> Void] = []
    private var resolutions = 0

    /// The view the core shows now (nil in an END state).
    public private(set) var currentView: String?
    /// Updates applied on the native side, in order.
    public private(set) var applied: [PlayerViewUpdate] = []
    /// Microtask jobs queued so far (one per batch of data changes).
    public private(set) var queuedBatches = 0

    /// A controller for `views` (view ref → the bindings its assets show, in order) over `data`,
    /// following `flow`. Declares the lane rule `microtask` drains before `main`.
    public init(_ simulation: Simulation, data: PlayerDataModel, flow: PlayerFlow, views: [String: [String]]) {
        self.simulation = simulation
        self.data = data
        self.views = views
        microtask = simulation.lane("microtask")
        main = simulation.lane("main")
        simulation.rule(microtask, drainsBefore: main)
        // Weak: the flow and the data model must not keep the controller alive.
        flow.onTransition { [weak self] _, state in
            guard let self else { return }
            if let ref = state.viewRef { onView(ref) } else { currentView = nil }
        }
        data.onUpdate { [weak self] binding in self?.queueUpdate(binding) }
    }

    /// Calls `observer` inside every native `view.update` job, in subscription order.
    public func onNativeUpdate(_ observer: @escaping (PlayerViewUpdate) -> Void) {
        nativeObservers.append(observer)
    }

    private func onView(_ ref: String) {
        currentView = ref
        sendToNative(resolve(ref, reason: "enter"))
    }

    private func queueUpdate(_ binding: String) {
        guard currentView != nil else { return }
        if var pending = pendingBindings {
            if !pending.contains(binding) { pending.append(binding) }
            pendingBindings = pending
            simulation.emit("view.queueUpdate", binding, ["batched": true, "pending": .int(pending.count)])
            return
        }
        pendingBindings = [binding]
        queuedBatches += 1
        simulation.emit("view.queueUpdate", binding, ["batched": false, "pending": 1])
        simulation.post(microtask, simulation.symbol("view.resolve")) { [self] in
            let changed = pendingBindings ?? []
            pendingBindings = nil
            guard let ref = currentView else { return }
            simulation.emit("view.resolve", ref, ["bindings": .int(changed.count)])
            sendToNative(resolve(ref, reason: "data"))
        }
    }

    private func resolve(_ ref: String, reason: String) -> PlayerViewUpdate {
        resolutions += 1
        let bindings = views[ref] ?? []
        return PlayerViewUpdate(
            viewRef: ref, values: bindings.map { ($0, data.get($0)) }, reason: reason, number: resolutions)
    }

    private func sendToNative(_ update: PlayerViewUpdate) {
        simulation.post(main, simulation.symbol("view.update")) { [self] in
            applied.append(update)
            simulation.emit(
                "view.update", update.viewRef,
                ["reason": .text(update.reason), "number": .int(update.number)])
            for observer in nativeObservers { observer(update) }
        }
    }
}
