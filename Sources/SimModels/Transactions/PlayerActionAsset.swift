import SimCore

/// Player's reference action asset: a button whose `run` function transitions the flow.
public final class PlayerActionAsset {
    private unowned let simulation: Simulation
    private let flow: PlayerFlow
    private let transactions: TransactionContext<PendingTransactionPhases>

    /// The asset's id, the subject of its events.
    public let id: String
    /// The transition value `run` follows.
    public let value: String

    /// An action asset following `value` on `flow`; sessions make them with `action(_:value:)`.
    public init(
        _ simulation: Simulation, id: String, value: String, flow: PlayerFlow,
        transactions: TransactionContext<PendingTransactionPhases>
    ) {
        self.simulation = simulation
        self.id = id
        self.value = value
        self.flow = flow
        self.transactions = transactions
    }

    /// Calls the wrapped function directly: the flow transitions with whatever is saved now.
    @discardableResult
    public func run() -> Bool {
        simulation.emit("action.run", id, ["value": .text(value)])
        return flow.transition(value)
    }

    /// `WrappedFunction.commitCallbacksThenCall` (player-ui/player
    /// `plugins/reference-assets/swiftui/Sources/SwiftUI/ActionAsset.swift`): commits `.input` first
    /// (each callback's `set()` is its own call into JS), then calls the wrapped `run`.
    @discardableResult
    public func commitCallbacksThenCall() -> Bool {
        transactions.commit(.input)
        return run()
    }
}
