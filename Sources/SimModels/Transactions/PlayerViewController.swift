import SimCore

/// Player's view controller plus the native side that applies its updates.
///
/// Entering a view creates a new `PlayerViewInstance` and resolves it at once (inside the
/// transition). Data changes are batched: the first change queues ONE microtask and later changes
/// join it; the microtask updates whatever view is current when it runs, as Player's `queueUpdate`
/// does (`this.currentView?.update(updates)` inside `queueMicrotask`, player-ui/player
/// `core/player/src/controllers/view/controller.ts`). Microtasks run at the end of the native→JS
/// call that queued them (`PlayerJSContext`). Every resolved view reaches the native side as
/// separate jobs (`view.update`), which is where assets copy values in; `rendering` says how, and
/// `staleUpdates` whether the native side still applies an update of a view the flow has left.
public final class PlayerViewController {
    private unowned let simulation: Simulation
    private let data: PlayerDataModel
    private let views: [String: [String]]
    private let main: LaneID
    private let staleUpdates: PlayerStaleUpdatePolicy
    private let rendering: PlayerNativeRendering
    private var pendingBindings: [String]?
    private var nativeObservers: [(PlayerViewUpdate) -> Void] = []
    private var resolutions = 0
    private var instances = 0
    /// The resolution number of the last update handed to the native side.
    private var lastSent = 0

    /// The view instance the core shows now (nil before the first view and in an END state).
    public private(set) var current: PlayerViewInstance?
    /// The view the core shows now (nil in an END state).
    public var currentView: String? { current?.ref }
    /// Updates applied on the native side, in order; the last one is what the screen shows.
    public private(set) var applied: [PlayerViewUpdate] = []
    /// Updates the native side did not apply: of a view the flow had left (`staleUpdates: .drop`)
    /// or whose rendering a newer update cancelled (`rendering: .cancelPreviousRender`).
    public private(set) var droppedCount = 0
    /// Microtasks queued so far (one per batch of data changes).
    public private(set) var queuedBatches = 0

    /// A controller for `views` (view ref → the bindings its assets show, in order) over `data`,
    /// following `flow`; microtasks run in `data.js`.
    public init(
        _ simulation: Simulation, data: PlayerDataModel, flow: PlayerFlow, views: [String: [String]],
        staleUpdates: PlayerStaleUpdatePolicy = .deliver, rendering: PlayerNativeRendering = .mainQueue
    ) {
        self.simulation = simulation
        self.data = data
        self.views = views
        self.staleUpdates = staleUpdates
        self.rendering = rendering
        main = simulation.lane("main")
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
        queuedBatches += 1
        simulation.emit(
            "view.queueUpdate", binding, ["batched": false, "pending": 1, "instance": .int(current.number)])
        data.js.queueMicrotask("view.resolve") { [self] in
            let changed = pendingBindings ?? []
            pendingBindings = nil
            // The view current when the microtask runs, not when it was queued.
            guard let shown = self.current else { return }
            update(shown, bindings: changed, reason: "data")
        }
    }

    private func update(_ instance: PlayerViewInstance, bindings: [String], reason: String) {
        resolutions += 1
        let shown = views[instance.ref] ?? []
        let update = PlayerViewUpdate(
            viewRef: instance.ref, values: shown.map { ($0, data.value($0)) }, reason: reason, number: resolutions,
            instance: instance.number)
        simulation.emit(
            "view.resolve", instance.ref,
            [
                "reason": .text(reason), "number": .int(resolutions), "instance": .int(instance.number),
                "bindings": .int(bindings.count),
            ])
        sendToNative(update)
    }

    private func sendToNative(_ update: PlayerViewUpdate) {
        lastSent = update.number
        switch rendering {
        case .mainQueue:
            simulation.post(main, simulation.symbol("view.update")) { [self] in apply(update) }
        case .hydrateConcurrently, .cancelPreviousRender:
            // One lane per update: the hydrations of two updates finish in an order the strategy picks.
            let hydrate = simulation.lane("native.hydrate.\(update.number)")
            simulation.post(hydrate, simulation.symbol("view.hydrate")) { [self] in
                guard !renderCancelled(update) else { return }
                simulation.post(main, simulation.symbol("view.update")) { [self] in apply(update) }
            }
        }
    }

    /// Android's `PlayerFragment.handleAssetUpdate` cancels the rendering job of the previous update
    /// when a new one arrives: an update older than the last one sent is never shown.
    private func renderCancelled(_ update: PlayerViewUpdate) -> Bool {
        guard rendering == .cancelPreviousRender, update.number < lastSent else { return false }
        droppedCount += 1
        simulation.emit(
            "view.renderCancelled", update.viewRef, ["number": .int(update.number), "by": .int(lastSent)])
        return true
    }

    private func apply(_ update: PlayerViewUpdate) {
        if renderCancelled(update) { return }
        if staleUpdates == .drop, update.instance != current?.number {
            droppedCount += 1
            simulation.emit(
                "view.dropped", update.viewRef,
                ["instance": .int(update.instance), "number": .int(update.number), "current": .text(currentView ?? "")])
            return
        }
        applied.append(update)
        simulation.emit(
            "view.update", update.viewRef,
            ["reason": .text(update.reason), "number": .int(update.number), "instance": .int(update.instance)])
        for observer in nativeObservers { observer(update) }
    }
}
