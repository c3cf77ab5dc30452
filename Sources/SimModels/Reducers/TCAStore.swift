import SimCore

extension TCA {
    /// Where an action sent to a store came from.
    public enum SendOrigin: String, Sendable {
        /// Sent from outside the store: the view, a test, a parent.
        case view
        /// Sent back by an effect (`.send`, or `send` inside `.run`).
        case effect
    }

    /// A store: runs a reducer on the `main` lane and the effects it returns, as TCA's `Store` and
    /// `RootCore` do.
    ///
    /// - A `send` during a `send` (from a `.send` effect, or a reducer's synchronous work) is buffered and
    ///   processed after the actions already queued, first in first out.
    /// - State is written back once the whole batch is processed; `state.change` records each action that
    ///   changed it.
    /// - `.run` effects become tasks on the simulation's executor, one lane each, started after `send`
    ///   returns; their actions come back through `main`-lane jobs.
    /// - Cancellation ids and registrations live here, per store.
    ///
    /// `@unchecked Sendable`: effect tasks refer to the store, and they all run on the simulation's one
    /// thread (see `Simulation`); the store must never be touched from another thread.
    public final class Store<R: TCAReducer>: @unchecked Sendable where R.State: Equatable {
        /// The reducer's state.
        public typealias State = R.State
        /// The reducer's action.
        public typealias Action = R.Action

        /// The simulation the store runs in.
        public let simulation: Simulation
        /// The subject of the store's events.
        public let name: String
        /// The current state (written back at the end of each batch of actions).
        public internal(set) var state: State
        /// Actions processed so far.
        public internal(set) var processedActions = 0
        /// `.cancel` or `cancelInFlight` calls that ran while an effect with the same id had been launched
        /// but had not registered yet: cancellations that missed.
        public internal(set) var missedCancellations = 0
        /// Registered effects cancelled so far (by `.cancel`, `cancelInFlight` or a dismissed `ifLet` child).
        public internal(set) var cancelledEffects = 0
        /// A bound on one batch: more actions than this sent during one `send` is a runaway loop.
        public let maxActionsPerSend: Int
        /// When cancellable effects become reachable by `.cancel` (TCA: when their task starts).
        public let registration: CancellationRegistration
        /// Which effects the task `send` returns holds (TCA: the whole tree of sent actions).
        public let taskTree: TaskTree

        let reducer: R
        let context: ReduceContext
        let main: LaneID
        var buffer: [(action: Action, origin: SendOrigin)] = []
        var isSending = false
        var inFlight: [InFlightEffect] = []
        var registrations: [Registration] = []
        var unregistered: [PendingRegistration] = []
        /// With `.whenReturned`: cancellable parts cancelled before their task reached them.
        var cancelledPending: [PendingRegistration] = []
        /// Effects cancelled through a registration, until they finish (for `effect.finish`'s field).
        var cancelledNumbers: [Int] = []
        var nextEffectNumber = 0
        var nextRegistrationSerial = 0
        /// The task tree of the batch being processed (effects launched now join it).
        var currentTasks: StoreTask?
        /// Each in-flight effect's task tree: the tree of the send that launched it.
        var effectTrees: [Int: StoreTask] = [:]

        /// Called after each action is reduced, with the state it produced (the test store listens).
        var didProcess: ((Action, SendOrigin, State) -> Void)?
        /// Called after an effect finishes (the test store listens).
        var didFinishEffect: (() -> Void)?
        /// The view's observers, called with the new state after each batch (see `observe`).
        var stateObservers: [(State) -> Void] = []

        struct InFlightEffect {
            let number: Int
            let label: String
        }

        struct Registration {
            let serial: Int
            let id: CancelID
            let effect: Int
            let task: Task<Void, Never>
        }

        struct PendingRegistration {
            let effect: Int
            let id: CancelID
        }

        /// A store named `name` running `reducer` from `initialState` in `simulation`.
        public init(
            _ simulation: Simulation, name: String = "store", initialState: State, reducer: R,
            maxActionsPerSend: Int = 10_000, registration: CancellationRegistration = .whenStarted,
            taskTree: TaskTree = .includesSentActions
        ) {
            self.registration = registration
            self.taskTree = taskTree
            self.simulation = simulation
            self.name = name
            self.state = initialState
            self.reducer = reducer
            self.maxActionsPerSend = maxActionsPerSend
            self.context = ReduceContext(simulation: simulation, storeName: name)
            self.main = simulation.lane(TCA.mainLane)
        }

        /// Sends an action from outside (the view). Call it from a `main`-lane job. Returns the task of
        /// the effects it started (see `StoreTask`); cancelling it is what SwiftUI's `.task` does.
        ///
        /// A send from outside while the store is processing (a reducer or an observer calling
        /// `store.send`) fails the run: TCA reports "Sent '…' while an action was being processed"
        /// (`Core.swift`, origin `.store`), a test failure in tests, and still buffers the action.
        @discardableResult
        public func send(_ action: Action) -> StoreTask {
            if let lane = simulation.currentLane, lane != main {
                simulation.fail(
                    "tca.main-lane",
                    "store \(name) was sent \(TCA.describe(action)) off the main lane; stores are @MainActor")
            }
            if isSending {
                simulation.fail(
                    "tca.reentrant-send",
                    "store \(name) was sent \(TCA.describe(action)) while an action was being processed;"
                        + " reentrant actions are undefined (TCA reports it)")
            }
            return send(action, origin: .view) ?? StoreTask()
        }

        /// Calls `observer` with the state each time a batch of actions has been processed and written
        /// back, as a view observing the store re-renders after `send` returns (TCA's observation).
        public func observe(_ observer: @escaping (State) -> Void) {
            stateObservers.append(observer)
        }

        /// Child actions an `ifLet` dropped because the child state was nil (each one TCA reports).
        public var droppedActions: Int { context.droppedActions }

        /// Labels of the effects still running, in the order they were launched.
        public var inFlightEffects: [String] { inFlight.map(\.label) }

        /// The ids under which effects are registered now, in registration order.
        public var registeredIDs: [String] { registrations.map(\.id.description) }

        /// What is wrong with the store's bookkeeping between jobs, or nil (for `sim.always`).
        public func invariantViolation() -> String? {
            if isSending { return "store \(name) is still sending between jobs" }
            if !buffer.isEmpty { return "store \(name) left \(buffer.count) buffered action(s) between jobs" }
            for registration in registrations where !inFlight.contains(where: { $0.number == registration.effect }) {
                return "registration under \(registration.id) outlives its effect #\(registration.effect)"
            }
            for pending in unregistered where !inFlight.contains(where: { $0.number == pending.effect }) {
                return "pending registration under \(pending.id) outlives its effect #\(pending.effect)"
            }
            for pending in cancelledPending where !inFlight.contains(where: { $0.number == pending.effect }) {
                return "cancelled pending part under \(pending.id) outlives its effect #\(pending.effect)"
            }
            for number in cancelledNumbers where !inFlight.contains(where: { $0.number == number }) {
                return "cancelled effect #\(number) is remembered after it finished"
            }
            return nil
        }

        /// Processes `action` (and whatever it buffers); the task tree of the effects it started, or nil
        /// when it was only buffered behind the batch being processed.
        @discardableResult
        func send(_ action: Action, origin: SendOrigin) -> StoreTask? {
            simulation.emit(
                "store.send", name,
                [
                    "action": .text(TCA.describe(action)), "kind": .text(TCA.kind(of: action)),
                    "origin": .text(origin.rawValue), "buffered": .bool(isSending),
                ])
            buffer.append((action, origin))
            guard !isSending else { return nil }
            isSending = true
            let tasks = StoreTask()
            currentTasks = tasks
            var current = state
            var index = 0
            while index < buffer.count {
                guard index < maxActionsPerSend else {
                    simulation.fail(
                        "tca.runaway-send", "store \(name) processed \(maxActionsPerSend) actions in one send")
                    break
                }
                let (action, origin) = buffer[index]
                index += 1
                let before = current
                let effect = ReduceContext.$current.withValue(context) {
                    reducer.reduce(into: &current, action: action)
                }
                processedActions += 1
                if current != before {
                    simulation.emit("state.change", name, ["action": .text(TCA.describe(action))])
                }
                didProcess?(action, origin, current)
                start(effect)
            }
            buffer.removeAll(keepingCapacity: true)
            currentTasks = nil
            state = current
            isSending = false
            for observer in stateObservers { observer(current) }
            return tasks
        }
    }
}
