import SimCore

/// A board that runs one task at a time and reports its result (Boardy's `TaskBoard`).
///
/// Facts from congncif/Boardy `Boardy/ComponentKit/TaskBoard.swift`: a single activation slot; an
/// activation while a task runs is dropped (the executor does not run twice); on success the order
/// is success handler → output → release → processing handler → completion handler → `complete`;
/// on failure error handler → release → …; a duplicate executor completion still runs the success
/// handler and sends the output again, but releasing (and so completing) happens once.
public final class TaskBoard: ActivatableBoard {
    /// Runs the task for an input and calls the completion, now or from a later job.
    public typealias Executor = (_ input: BoardValue, _ completion: @escaping (BoardTaskResult) -> Void) -> Void

    /// The board's address within its motherboard.
    public let identifier: String
    /// The motherboard it sends to; weak, as in Boardy.
    public weak var delegate: Motherboard?
    unowned let sim: Simulation
    private let executor: Executor
    private let onSuccess: (BoardValue) -> Void
    private let onProcessing: (Bool) -> Void
    private let onError: (BoardError) -> Void
    private let onCompletion: () -> Void

    /// True while the slot is taken.
    public private(set) var isProcessing = false
    /// Tasks started and activations dropped so far.
    public private(set) var started = 0
    /// Activations dropped because a task was running.
    public private(set) var dropped = 0

    /// A task board; the handlers default to doing nothing.
    public init(
        _ identifier: String, sim: Simulation, executor: @escaping Executor,
        onSuccess: @escaping (BoardValue) -> Void = { _ in }, onProcessing: @escaping (Bool) -> Void = { _ in },
        onError: @escaping (BoardError) -> Void = { _ in }, onCompletion: @escaping () -> Void = {}
    ) {
        self.identifier = identifier
        self.sim = sim
        self.executor = executor
        self.onSuccess = onSuccess
        self.onProcessing = onProcessing
        self.onError = onError
        self.onCompletion = onCompletion
    }

    /// Runs the executor for the option's input, unless a task is running (then drops it).
    public func activate(withOption option: BoardOption) {
        guard case .value(let input) = option else {
            sim.emit("board.drop", identifier, ["reason": "wrong option"])
            return
        }
        guard !isProcessing else {
            dropped += 1
            sim.emit("board.drop", identifier, ["reason": "busy", "input": .text(input.description)])
            return
        }
        isProcessing = true
        started += 1
        let number = started
        sim.emit("task.start", identifier, ["task": .int(number), "input": .text(input.description)])
        onProcessing(true)
        executor(input) { [self] result in finish(number, result) }
    }

    private func finish(_ number: Int, _ result: BoardTaskResult) {
        sim.emit(
            "task.finish", identifier,
            ["task": .int(number), "ok": .bool((try? result.get()) != nil), "slotHeld": .bool(isProcessing)])
        switch result {
        case .success(let output):
            onSuccess(output)
            sendOutput(output, in: sim)
            sim.afterCall("task.end") { [self] in endProcess(isDone: true) }
        case .failure(let error):
            onError(error)
            endProcess(isDone: false)
        }
    }

    private func endProcess(isDone: Bool) {
        // Releasing twice does nothing: a duplicate completion cannot complete the board twice.
        guard isProcessing else { return }
        isProcessing = false
        sim.emit("task.release", identifier, ["done": .bool(isDone)])
        onProcessing(false)
        onCompletion()
        complete(isDone, in: sim)
    }
}
