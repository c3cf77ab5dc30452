import SimCore

/// A handler for one `keyType` of trigger (Nativeblocks' `INativeAction`).
public protocol INativeAction: AnyObject {
    /// Does the trigger's work and fires the next-trigger callback(s) it wants.
    func handle(actionProps: ActionProps)
}

/// A handler whose whole body runs inside `handle`.
public final class SyncNativeAction: INativeAction {
    private let body: (ActionProps) -> Void

    /// A synchronous handler.
    public init(_ body: @escaping (ActionProps) -> Void) { self.body = body }

    /// Runs the body now, inside the walk.
    public func handle(actionProps: ActionProps) { body(actionProps) }
}

/// A handler that launches its body as a job (a coroutine or `Task` in the real SDKs) on `lane`:
/// `handle` returns at once, so the walker goes on to the next root sibling before the body runs.
/// When the props carry the frame's scope the body is launched in it, so clearing the frame before
/// the body's turn cancels it.
public final class AsyncNativeAction: INativeAction {
    unowned let sim: Simulation
    private let lane: String
    private let label: String
    private let body: (ActionProps) -> Void

    /// An asynchronous handler whose body runs as a job labelled `label` on `lane`.
    public init(_ sim: Simulation, lane: String, label: String = "action.body", _ body: @escaping (ActionProps) -> Void)
    {
        self.sim = sim
        self.lane = lane
        self.label = label
        self.body = body
    }

    /// Posts the body as a job on the handler's lane and returns at once.
    public func handle(actionProps: ActionProps) {
        let body = self.body
        if let scope = actionProps.coroutineScope {
            scope.launch(on: lane, label) { body(actionProps) }
        } else {
            sim.post(on: lane, label) { body(actionProps) }
        }
    }
}
