import SimCore

/// Player's view controller plus the native side that applies its updates.
///
/// Entering a view creates a new `PlayerViewInstance` and resolves it at once (inside the
/// transition). Data changes are batched: the first change queues ONE microtask job and later
/// changes join it, as Player's `queueUpdate` does with `queueMicrotask`
/// (player-ui/player `core/player/src/controllers/view/controller.ts`). The microtask lane drains
/// before `main`. A batch belongs to the instance that was current when it was queued: if the flow
/// has moved on by the time it runs, `staleUpdates` decides whether that old instance still reaches
/// the native side (issue #403 / #485) or drops it (PR #471). Every resolved view reaches the native
/// side as a separate job (`view.update`), which is where assets copy values in.
public final class PlayerViewController {
    private unowned let simulation: Simulation
    private let data: PlayerDataModel
    private let views: [String: [String]]
    private let microtask: LaneID
    private let main: LaneID
    private let staleUpdates: PlayerStaleUpdatePolicy
    private let rendering: PlayerNativeRendering
    private var pendingBindings: [String]?
    private var pendingInstance: PlayerViewInstance?
    private var nativeObservers: [(PlayerViewUpdate) -> Void] = []
    private var resolutions = 0
    private var instances = 0

    /// The view instance the core shows now (nil before the first view and in an END state).
    public private(set) var current: PlayerViewInstance?
    /// The view the core shows now (nil in an END state).
    public var currentView: String? { current?.ref }
    /// Updates applied on the native side, in order; the last one is what the screen shows.
    public private(set) var applied: [PlayerViewUpdate] = []
    /// Updates for an instance the flow had left, dropped before reaching the native side.
    public private(set) var droppedCount = 0
    /// Microtask jobs queued so far (one per batch of data changes).
    public private(set) var queuedBatches = 0

    /// A controller for `views` (view ref → the bindings its assets show, in order) over `data`,
    /// following `flow`. Declares the lane rule `microtask` drains before `main`.
    public init(
        _ simulation: Simulation, data: PlayerDataModel, flow: PlayerFlow, views: [String: [String]],
        staleUpdates: PlayerStaleUpdatePolicy = .drop, rendering: PlayerNativeRendering = .mainQueue
    ) {
        self.simulation = simulation
        self.data = data
        self.views = views
        self.staleUpdates = staleUpdates
        self.rendering = rendering
        microtask = simulation.lane("microtask")
        main = simulation.lane("main")
        simulation.rule(microtask, drainsBefore: main)
        // Weak: the flow and the data model must not keep the controller alive.
        flow.onTransition { [weak self] _, state in
            guard let self else { return }
            current?.isCurrent = false
            if let ref = state.viewRef { onView(ref) } else { current = nil }
        }
        data.onUpdate { [weak self] binding in self?.queueUpdate(binding) }
    }

    /// Calls `observer` inside every native `view.update` job, in subscription order.
    public func onNativeUpdate(_ observer: @escaping (PlayerViewUpdate) -> Void) {
        nativeObservers.append(observer)
    }

    /// Player's `currentView.update(bindings)`: re-resolves the current view now, from the data
    /// model as it is, and sends it to the native side (what a blocked navigation does to show errors).
    public func updateCurrentView(_ bindings: [String], reason: String) {
        guard let current else { return }
        update(current, bindings: bindings, reason: reason)
    }

    private func onView(_ ref: String) {
        instances += 1
        let instance = PlayerViewInstance(ref: ref, number: instances)
        current = instance
        update(instance, bindings: views[ref] ?? [], reason: "enter")
    }

    private func queueUpdate(_ binding: String) {
        guard let current else { return }
        if var pending = pendingBindings {
            if !pending.contains(binding) { pending.append(binding) }
            pendingBindings = pending
            simulation.emit("view.queueUpdate", binding, ["batched": true, "pending": .int(pending.count)])
            return
        }
        pendingBindings = [binding]
        pendingInstance = current
        queuedBatches += 1
        simulation.emit(
            "view.queueUpdate", binding, ["batched": false, "pending": 1, "instance": .int(current.number)])
        simulation.post(microtask, simulation.symbol("view.resolve")) { [self] in
            let changed = pendingBindings ?? []
            let instance = pendingInstance
            pendingBindings = nil
            pendingInstance = nil
            guard let instance else { return }
            update(instance, bindings: changed, reason: "data")
        }
    }

    private func update(_ instance: PlayerViewInstance, bindings: [String], reason: String) {
        if !instance.isCurrent, staleUpdates == .drop {
            droppedCount += 1
            simulation.emit(
                "view.dropped", instance.ref,
                ["instance": .int(instance.number), "reason": .text(reason), "current": .text(currentView ?? "")])
            return
        }
        resolutions += 1
        let shown = views[instance.ref] ?? []
        let update = PlayerViewUpdate(
            viewRef: instance.ref, values: shown.map { ($0, data.get($0)) }, reason: reason, number: resolutions,
            instance: instance.number)
        simulation.emit(
            "view.resolve", instance.ref,
            [
                "reason": .text(reason), "number": .int(resolutions), "instance": .int(instance.number),
                "bindings": .int(bindings.count), "stale": .bool(!instance.isCurrent),
            ])
        sendToNative(update)
    }

    private func sendToNative(_ update: PlayerViewUpdate) {
        switch rendering {
        case .mainQueue:
            simulation.post(main, simulation.symbol("view.update")) { [self] in apply(update) }
        case .hydrateConcurrently:
            // One lane per update: the hydrations of two updates finish in an order the strategy picks.
            let hydrate = simulation.lane("native.hydrate.\(update.number)")
            simulation.post(hydrate, simulation.symbol("view.hydrate")) { [self] in
                simulation.post(main, simulation.symbol("view.update")) { [self] in apply(update) }
            }
        }
    }

    private func apply(_ update: PlayerViewUpdate) {
        applied.append(update)
        simulation.emit(
            "view.update", update.viewRef,
            ["reason": .text(update.reason), "number": .int(update.number), "instance": .int(update.instance)])
        for observer in nativeObservers { observer(update) }
    }
}
