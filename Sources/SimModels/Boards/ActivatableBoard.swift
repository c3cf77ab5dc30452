import SimCore

/// A board a `Motherboard` can install, activate and remove.
///
/// Boards are main-thread objects in Boardy but their executors finish on any thread; here every
/// call runs inside a simulation job, and the lane of that job is the "thread" it runs on.
public protocol ActivatableBoard: AnyObject {
    /// The board's address within its motherboard.
    var identifier: String { get }
    /// Set when installed; cleared on removal when the motherboard detaches removed boards.
    var delegate: Motherboard? { get set }
    /// Starts the board with an option of the kind it understands.
    func activate(withOption option: BoardOption)
}

extension ActivatableBoard {
    /// Sends `message` to the motherboard, or records that nobody received it.
    func send(_ message: BoardMessage, in sim: Simulation) {
        if let delegate {
            delegate.receive(message, from: self)
            return
        }
        switch message {
        case .output(let value):
            sim.emit("board.output", identifier, ["value": .text(value.description), "delivered": false])
        case .complete(let isDone):
            sim.emit("board.complete", identifier, ["done": .bool(isDone), "delivered": false])
        case .activate(let target, _):
            sim.emit("board.activate", target, ["from": .text(identifier), "delivered": false])
        }
    }

    /// Sends an output to the motherboard's flows.
    public func sendOutput(_ value: BoardValue, in sim: Simulation) { send(.output(value), in: sim) }

    /// Completes the board: the motherboard's default flow removes it.
    public func complete(_ isDone: Bool = true, in sim: Simulation) { send(.complete(isDone: isDone), in: sim) }
}
