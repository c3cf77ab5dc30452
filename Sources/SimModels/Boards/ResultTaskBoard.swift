import SimCore

/// A task board whose output is a `BoardResult` (Boardy's `ResultTaskBoard`).
///
/// Facts from congncif/Boardy `Boardy/ComponentKit/ResultTaskBoard.swift`: one activation at a
/// time (others are dropped); progress is sent as output whenever reported; the first terminal
/// result releases the board, sends the result and completes it (done only for success); a later
/// terminal result is a no-op.
public final class ResultTaskBoard: ActivatableBoard {
    /// Runs the task and reports progress and one terminal result through the callback.
    public typealias Executor = (_ input: BoardValue, _ report: @escaping (BoardResult) -> Void) -> Void

    /// The board's address within its motherboard.
    public let identifier: String
    /// The motherboard it sends to; weak, as in Boardy.
    public weak var delegate: Motherboard?
    unowned let sim: Simulation
    private let executor: Executor

    /// True between an accepted activation and its terminal result.
    public private(set) var isActive = false
    /// Activations dropped because one was active.
    public private(set) var dropped = 0

    /// A result task board.
    public init(_ identifier: String, sim: Simulation, executor: @escaping Executor) {
        self.identifier = identifier
        self.sim = sim
        self.executor = executor
    }

    /// Runs the executor for the option's input, unless an activation is already active (then drops it).
    public func activate(withOption option: BoardOption) {
        guard case .value(let input) = option, !isActive else {
            dropped += 1
            sim.emit("board.drop", identifier, ["reason": "busy"])
            return
        }
        isActive = true
        sim.emit("task.start", identifier, ["input": .text(input.description)])
        executor(input) { [self] result in report(result) }
    }

    private func report(_ result: BoardResult) {
        guard result.isTerminal else {
            sendOutput(.result(result), in: sim)
            return
        }
        guard isActive else {
            sim.emit("task.finish", identifier, ["result": .text(result.description), "ignored": true])
            return
        }
        isActive = false
        sim.emit("task.finish", identifier, ["result": .text(result.description), "ignored": false])
        sendOutput(.result(result), in: sim)
        let isDone: Bool
        if case .success = result { isDone = true } else { isDone = false }
        sim.afterCall("task.complete") { [self] in complete(isDone, in: sim) }
    }
}
