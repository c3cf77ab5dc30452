import SimCore

/// The minimum of a Player instance for pending-transaction scenarios: data, flow, views, the
/// transaction context, and the assets on screen.
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
    public unowned let simulation: Simulation
    public let data: PlayerDataModel
    public let flow: PlayerFlow
    public let views: PlayerViewController
    public let transactions: TransactionContext<PendingTransactionPhases>

    public init(
        _ simulation: Simulation, data initial: [String: String] = [:], start: String? = nil,
        states: [PlayerFlowState], views: [String: [String]]
    ) {
        precondition(!states.isEmpty, "a flow needs at least one state")
        self.simulation = simulation
        data = PlayerDataModel(simulation, initial: initial)
        flow = PlayerFlow(simulation, start: start ?? states[0].name, states: states)
        self.views = PlayerViewController(simulation, data: data, flow: flow, views: views)
        transactions = TransactionContext(simulation)
    }

    /// An input asset on the native side bound to `binding`.
    public func input(_ id: String, binding: String) -> PlayerInputAsset {
        PlayerInputAsset(simulation, id: id, binding: binding, data: data, transactions: transactions, views: views)
    }

    /// An action asset whose `run` follows the transition `value`.
    public func action(_ id: String, value: String) -> PlayerActionAsset {
        PlayerActionAsset(simulation, id: id, value: value, flow: flow, transactions: transactions)
    }

    /// Starts the flow: its first view is resolved and sent to the native side.
    public func start() { flow.start() }
}
