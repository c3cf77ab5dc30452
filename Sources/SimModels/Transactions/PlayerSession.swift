import SimCore

/// The minimum of a Player instance for pending-transaction scenarios: data, flow, views, the
/// transaction context, navigation validation, and the assets on screen.
///
/// As in player-ui/player `core/player/src/player.ts`, validation taps the flow's `skipTransition`:
/// a view whose required bindings are empty in the data model blocks the transition, and the
/// current view is re-resolved at once (`currentView.update(bindings)`) to show the errors.
///
/// ```swift
/// let player = PlayerSession(simulation, data: ["user.name": ""],
///     states: [.init("VIEW_1", view: "form", transitions: ["next": "VIEW_2"]),
///              .init("VIEW_2", view: "review")],
///     views: ["form": ["user.name"], "review": ["user.name"]])
/// let name = player.input("name", binding: "user.name")
/// let next = player.action("next", value: "next")
/// player.start()
/// ```
public final class PlayerSession {
    /// The simulation the session runs in.
    public unowned let simulation: Simulation
    /// The JS engine's microtask queue, shared by the data model, the flow and the views.
    public let js: PlayerJSContext
    /// The bindings and their values.
    public let data: PlayerDataModel
    /// The navigation state machine.
    public let flow: PlayerFlow
    /// Resolves the current view and sends updates to the native side.
    public let views: PlayerViewController
    /// Pending transactions (an edited input's save), committed before actions that ask for it.
    public let transactions: TransactionContext<PendingTransactionPhases>
    /// Navigation validation (`required` bindings per view).
    public let validation: PlayerValidation
    private let startView: String?
    /// Every asset this session created: owned here so none can vanish mid-run.
    private var assets: [AnyObject] = []

    /// A session over `states` and `views` (view ref → bindings shown). `required` lists, per view
    /// ref, the bindings navigation validation requires; `staleUpdates` and `rendering` choose the
    /// Player version and platform (see `PlayerStaleUpdatePolicy`, `PlayerNativeRendering`).
    public init(
        _ simulation: Simulation, data initial: [String: String] = [:], start: String? = nil,
        states: [PlayerFlowState], views: [String: [String]], required: [String: [String]] = [:],
        staleUpdates: PlayerStaleUpdatePolicy = .deliver, rendering: PlayerNativeRendering = .mainQueue
    ) {
        precondition(!states.isEmpty, "a flow needs at least one state")
        self.simulation = simulation
        let js = PlayerJSContext(simulation)
        self.js = js
        data = PlayerDataModel(simulation, initial: initial, js: js)
        let startName = start ?? states[0].name
        startView = states.first { $0.name == startName }?.viewRef
        flow = PlayerFlow(simulation, start: startName, states: states, js: js)
        let views = PlayerViewController(
            simulation, data: data, flow: flow, views: views, staleUpdates: staleUpdates, rendering: rendering)
        self.views = views
        transactions = TransactionContext(simulation)
        let validation = PlayerValidation(simulation, data: data, required: required)
        self.validation = validation
        // Strong captures are safe: neither the controller nor the validation holds the flow.
        flow.onSkipTransition { state in
            guard let ref = state.viewRef else { return false }
            let failing = validation.validateNavigation(ref)
            guard !failing.isEmpty else { return false }
            views.updateCurrentView(failing, reason: "validation")
            return true
        }
    }

    /// An input asset on the native side of `view` (default: the start state's view) bound to `binding`.
    /// The session keeps it for its whole life: a scenario that drops its reference still has a
    /// working input (the transaction it registers holds it only weakly, as Player's does).
    public func input(_ id: String, binding: String, view: String? = nil) -> PlayerInputAsset {
        let input = PlayerInputAsset(
            simulation, id: id, binding: binding, data: data, transactions: transactions, views: views,
            view: view ?? startView ?? "")
        assets.append(input)
        return input
    }

    /// An action asset whose `run` follows the transition `value` (kept by the session, as inputs are).
    public func action(_ id: String, value: String) -> PlayerActionAsset {
        let action = PlayerActionAsset(simulation, id: id, value: value, flow: flow, transactions: transactions)
        assets.append(action)
        return action
    }

    /// Starts the flow: its first view is resolved and sent to the native side.
    public func start() { flow.start() }
}
