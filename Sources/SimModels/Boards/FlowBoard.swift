import SimCore

/// A board that combines other boards into one business flow (Boardy's `FlowBoard`).
///
/// Facts from congncif/Boardy `Boardy/ComponentKit/FlowBoard.swift`: the registration closure runs
/// once, when the board is built, and registers flows on the board's own motherboard; the activation
/// closure runs on every activation.
public final class FlowBoard: ActivatableBoard {
    /// The board's address within its motherboard.
    public let identifier: String
    /// The motherboard it sends to; weak, as in Boardy.
    public weak var delegate: Motherboard?
    unowned let sim: Simulation
    /// The board's own motherboard, where its registration closure installs flows and boards.
    public let motherboard: Motherboard
    private let activation: (FlowBoard, BoardValue) -> Void

    /// A flow board; `registration` runs now, `activation` on each activation.
    public init(
        _ identifier: String, sim: Simulation, registration: (FlowBoard) -> Void,
        activation: @escaping (FlowBoard, BoardValue) -> Void
    ) {
        self.identifier = identifier
        self.sim = sim
        self.motherboard = Motherboard(identifier + ".motherboard", sim: sim)
        self.activation = activation
        registration(self)
    }

    /// Runs the activation closure with the option.
    public func activate(withOption option: BoardOption) {
        guard case .value(let input) = option else {
            sim.emit("board.drop", identifier, ["reason": "wrong option"])
            return
        }
        activation(self, input)
    }
}
