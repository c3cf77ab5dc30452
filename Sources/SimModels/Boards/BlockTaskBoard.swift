import SimCore

/// How a `BlockTaskBoard` treats an activation that arrives while others run (Boardy's
/// `ExecutingType`).
public enum ExecutingType: Hashable, Sendable {
    /// Every activation runs at once, independently.
    case `default`
    /// Earlier activations are cancelled; the new one runs on a one-at-a-time operation queue.
    case latest
    /// An activation while one runs is rejected with `.cancelled`.
    case only
    /// An activation while one runs waits; when the running task finishes, its result goes to every
    /// waiting activation too (their inputs are never used), and the board completes.
    case onlyResult
    /// Activations run one after another, in order.
    case queue
    /// Activations run on an operation queue with at most `max` at a time.
    case concurrent(max: Int)
}

/// A task board with per-activation handlers and an execution policy (Boardy's `BlockTaskBoard`).
///
/// Facts from congncif/Boardy `Boardy/ComponentKit/BlockTaskBoard.swift`: each activation's result
/// goes to its own handlers in the order success|error → output (success only) → processing(false)
/// → completion(.done); the board completes when the last task finished (for `queue`, when no task
/// is left to start); `only` rejects with completion(.cancelled) only; `latest` cancels every earlier
/// task (processing(false), completion(.cancelled)) and their late results are ignored; `latest`
/// and `concurrent` start their work from an OperationQueue, which is a hop (a job here);
/// `onlyResult` runs the first activation only and hands its result to every activation that
/// arrived meanwhile.
///
/// Cancelers, from the same file (Boardy 1.61+, `TaskStore.installCanceler`,
/// `cancelPendingTasksIfNeeded`; docs/MIGRATING_TO_1.61.md: earlier releases dropped the canceler):
/// a started task's executor returns a canceler; cancelling tasks (`latest`, or the board going away)
/// first calls the canceler of every started task, then delivers processing(false) and
/// completion(.cancelled) to each; a task cancelled while its executor has not yet returned has its
/// canceler called as soon as it is returned; a task that finished first has its canceler dropped
/// unused; a task that never started has no canceler.
public final class BlockTaskBoard: ActivatableBoard {
    /// Runs the task for an input and calls the completion, now or from a later job.
    public typealias Executor = (_ input: BoardValue, _ completion: @escaping (BoardTaskResult) -> Void) -> Void
    /// Like `Executor`, and returns the canceler that stops the work it started.
    public typealias CancelableExecutor = (
        _ input: BoardValue, _ completion: @escaping (BoardTaskResult) -> Void
    ) -> BlockTaskCanceler

    private enum Phase { case pending, waitingForOperation, running }

    /// Where a started task's canceler is: the executor has not returned it yet, or it is held.
    private enum CancelerState {
        case notStarted
        case awaitingInstallation
        case installed(BlockTaskCanceler)
    }

    private struct TaskRecord {
        let number: Int
        let parameter: BlockTaskParameter
        var phase: Phase
        var canceler: CancelerState = .notStarted
    }

    /// The board's address within its motherboard.
    public let identifier: String
    /// The motherboard it sends to; weak, as in Boardy.
    public weak var delegate: Motherboard?
    unowned let sim: Simulation
    /// How activations that overlap are treated.
    public let executingType: ExecutingType
    private let executor: CancelableExecutor
    /// Tasks cancelled before their executor returned: their canceler is called on return.
    private var cancelledBeforeInstallation: Set<Int> = []
    private var records: [TaskRecord] = []
    private var nextNumber = 0
    private var runningOperations = 0
    private var waitingOperations: [Int] = []

    /// Tasks started, finished, cancelled and rejected so far.
    public private(set) var started = 0
    /// Tasks that finished.
    public private(set) var finished = 0
    /// Tasks cancelled by a later activation (`latest`).
    public private(set) var cancelled = 0
    /// Activations rejected while a task ran (`only`).
    public private(set) var rejected = 0
    /// Cancelers the board called, in order of the task numbers they belong to.
    public private(set) var cancelersCalled: [Int] = []
    /// The most tasks that were running at once.
    public private(set) var peakRunning = 0

    /// Tasks accepted and not yet ended.
    public var activeCount: Int { records.count }
    private var runningCount: Int { records.filter { $0.phase == .running }.count }

    /// A block task board with a policy whose executor cannot be cancelled (returns `.none`).
    public convenience init(
        _ identifier: String, sim: Simulation, executingType: ExecutingType = .default, executor: @escaping Executor
    ) {
        self.init(identifier, sim: sim, executingType: executingType) { input, completion in
            executor(input, completion)
            return .none
        }
    }

    /// A block task board with a policy whose executor returns a canceler for the work it starts.
    ///
    /// A factory, not an initialiser, so a trailing closure never has two initialisers to match.
    public static func cancelable(
        _ identifier: String, sim: Simulation, executingType: ExecutingType = .default,
        executor: @escaping CancelableExecutor
    ) -> BlockTaskBoard {
        BlockTaskBoard(identifier, sim: sim, executingType: executingType, returningCancelers: executor)
    }

    private init(
        _ identifier: String, sim: Simulation, executingType: ExecutingType,
        returningCancelers executor: @escaping CancelableExecutor
    ) {
        self.identifier = identifier
        self.sim = sim
        self.executingType = executingType
        self.executor = executor
    }

    private var operationLimit: Int {
        switch executingType {
        case .concurrent(let max): Swift.max(1, max)
        default: 1
        }
    }

    /// Starts, queues, rejects or joins a task for the option's parameter, as `executingType` says.
    public func activate(withOption option: BoardOption) {
        guard case .block(let parameter) = option else {
            sim.emit("board.drop", identifier, ["reason": "wrong option"])
            return
        }
        nextNumber += 1
        let number = nextNumber
        switch executingType {
        case .default:
            accept(number, parameter, phase: .running)
            execute(number)
        case .only:
            guard records.isEmpty else {
                rejected += 1
                sim.emit("board.drop", identifier, ["reason": "only", "task": .int(number)])
                parameter.completionHandler?(.cancelled)
                return
            }
            accept(number, parameter, phase: .running)
            execute(number)
        case .queue, .onlyResult:
            let startNow = records.isEmpty
            accept(number, parameter, phase: startNow ? .running : .pending)
            if startNow { execute(number) }
        case .latest:
            cancelAll()
            accept(number, parameter, phase: .waitingForOperation)
            enqueueOperation(number)
        case .concurrent:
            accept(number, parameter, phase: .waitingForOperation)
            enqueueOperation(number)
        }
    }

    private func accept(_ number: Int, _ parameter: BlockTaskParameter, phase: Phase) {
        records.append(TaskRecord(number: number, parameter: parameter, phase: phase))
        sim.emit("task.accept", identifier, ["task": .int(number), "input": .text(parameter.input.description)])
        parameter.processingHandler?(true)
    }

    private func execute(_ number: Int) {
        guard let index = records.firstIndex(where: { $0.number == number }) else { return }
        records[index].phase = .running
        started += 1
        peakRunning = max(peakRunning, runningCount)
        sim.emit("task.start", identifier, ["task": .int(number)])
        records[index].canceler = .awaitingInstallation
        let canceler = executor(records[index].parameter.input) { [self] result in finish(number, result) }
        install(canceler, for: number)
    }

    /// Keeps the canceler of a task still running; calls it at once if the task was cancelled while
    /// its executor ran; drops it if the task already finished.
    private func install(_ canceler: BlockTaskCanceler, for number: Int) {
        if let index = records.firstIndex(where: { $0.number == number }) {
            records[index].canceler = .installed(canceler)
        } else if cancelledBeforeInstallation.remove(number) != nil {
            callCanceler(canceler, of: number, late: true)
        }
    }

    private func callCanceler(_ canceler: BlockTaskCanceler, of number: Int, late: Bool) {
        guard let handler = canceler.handler else { return }
        cancelersCalled.append(number)
        sim.emit("task.canceler", identifier, ["task": .int(number), "late": .bool(late)])
        handler()
    }

    // MARK: Operation queue (latest, concurrent)

    private func enqueueOperation(_ number: Int) {
        waitingOperations.append(number)
        pumpOperations()
    }

    private func pumpOperations() {
        while runningOperations < operationLimit, !waitingOperations.isEmpty {
            let number = waitingOperations.removeFirst()
            runningOperations += 1
            // The operation queue starts the work on its own thread: a hop.
            sim.post(sim.lane(identifier + ".operations"), sim.symbol("task.operation")) { [self] in
                if records.contains(where: { $0.number == number }) {
                    execute(number)
                } else {
                    // Cancelled before it started: the operation finishes at once.
                    runningOperations -= 1
                    pumpOperations()
                }
            }
        }
    }

    private var usesOperations: Bool {
        switch executingType {
        case .latest, .concurrent: true
        default: false
        }
    }

    // MARK: Ending

    /// Cancels every task, started or waiting, as upstream's `cancelPendingTasksIfNeeded` does when
    /// a `latest` activation arrives or the board is deinitialised (the board does not complete).
    public func cancelPendingTasks() {
        sim.emit("board.cancelTasks", identifier, ["tasks": .int(records.count)])
        cancelAll()
    }

    private func cancelAll() {
        let cancelledRecords = records
        records.removeAll()
        // Every started task's canceler runs before any cancellation is delivered.
        for record in cancelledRecords {
            switch record.canceler {
            case .installed(let canceler): callCanceler(canceler, of: record.number, late: false)
            case .awaitingInstallation: cancelledBeforeInstallation.insert(record.number)
            case .notStarted: break
            }
        }
        for record in cancelledRecords {
            cancelled += 1
            // A running operation that is cancelled finishes at once and frees its slot.
            if record.phase == .running && usesOperations { runningOperations -= 1 }
            sim.emit("task.cancel", identifier, ["task": .int(record.number)])
            record.parameter.processingHandler?(false)
            record.parameter.completionHandler?(.cancelled)
        }
    }

    private func finish(_ number: Int, _ result: BoardTaskResult) {
        guard let index = records.firstIndex(where: { $0.number == number }) else {
            // Cancelled, or a second completion: nobody is listening any more.
            sim.emit("task.finish", identifier, ["task": .int(number), "ignored": true])
            return
        }
        if executingType == .onlyResult {
            return finishAll(with: result, from: number)
        }
        let record = records.remove(at: index)
        let becameEmpty = records.isEmpty
        finished += 1
        if usesOperations { runningOperations -= 1 }
        sim.emit(
            "task.finish", identifier,
            ["task": .int(number), "ignored": false, "ok": .bool((try? result.get()) != nil)])
        switch result {
        case .success(let output):
            record.parameter.successHandler?(output)
            sendOutput(output, in: sim)
        case .failure(let error):
            record.parameter.errorHandler?(error)
        }
        sim.afterCall("task.deliver") { [self] in
            record.parameter.processingHandler?(false)
            record.parameter.completionHandler?(.done)
            afterDelivery(becameEmpty: becameEmpty)
        }
    }

    /// `onlyResult`: the running task's result is delivered to every activation, in order, each
    /// one's handlers in full (success|error → output → processing(false) → completion(.done)), as
    /// upstream's `finishExecuting` does with `transitionAll(terminal: .completed)`; then the board
    /// completes.
    private func finishAll(with result: BoardTaskResult, from number: Int) {
        let delivered = records
        records.removeAll()
        finished += 1
        sim.emit(
            "task.finish", identifier,
            [
                "task": .int(number), "ignored": false, "ok": .bool((try? result.get()) != nil),
                "sharedWith": .int(delivered.count - 1),
            ])
        for record in delivered {
            switch result {
            case .success(let output):
                record.parameter.successHandler?(output)
                sendOutput(output, in: sim)
            case .failure(let error):
                record.parameter.errorHandler?(error)
            }
            record.parameter.processingHandler?(false)
            record.parameter.completionHandler?(.done)
        }
        complete(true, in: sim)
    }

    private func afterDelivery(becameEmpty: Bool) {
        switch executingType {
        case .queue:
            if let next = records.first(where: { $0.phase == .pending }) {
                execute(next.number)
            } else if becameEmpty && records.isEmpty {
                complete(true, in: sim)
            }
        case .latest, .concurrent:
            pumpOperations()
            if becameEmpty { complete(true, in: sim) }
        case .default, .only, .onlyResult:
            if becameEmpty { complete(true, in: sim) }
        }
    }
}
