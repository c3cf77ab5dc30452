import SimCore

/// A task executor whose jobs join the simulation's ready set on one lane, so async/await code runs
/// in the seeded order and is recorded like any job.
///
/// Tasks started with `Task(name:executorPreference:)` or inside `withTaskExecutorPreference` enqueue
/// here, resume here after a continuation or a yield, and default actors they call follow the
/// preference. `@MainActor` code does not: models use a simulated `main` lane instead.
public final class SimTaskExecutor: TaskExecutor, @unchecked Sendable {
    unowned let simulation: Simulation
    /// The lane its jobs run on.
    public let lane: LaneID
    let label: Symbol

    init(simulation: Simulation, lane: LaneID, label: Symbol) {
        self.simulation = simulation
        self.lane = lane
        self.label = label
    }

    /// Posts `job` to the lane as a simulation job, to run when the strategy picks it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let simulation = simulation
        simulation.post(lane, label) {
            unownedJob.runSynchronously(on: executor)
            simulation.taskCensus?.after(job: unsafeBitCast(unownedJob, to: UnsafeRawPointer.self), isTaskJob: true)
        }
    }
}

extension Simulation {
    /// An executor whose jobs run on the lane `name` (for `withTaskExecutorPreference`).
    public func executor(lane name: String, label: String = "task") -> SimTaskExecutor {
        SimTaskExecutor(simulation: self, lane: lane(name), label: symbols.intern(label))
    }

    /// Starts an async task in the simulation, on a lane of its own named after it (`name`, then
    /// `name#2`, … for later tasks of the same name). A task still suspended when the run goes quiet
    /// is reported as pending work.
    @discardableResult
    public func spawn(_ name: String, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let seen = (taskLaneCounts[name] ?? 0) + 1
        taskLaneCounts[name] = seen
        let laneName = seen == 1 ? name : "\(name)#\(seen)"
        let executor = executor(lane: laneName)
        nextTaskNumber += 1
        let number = nextTaskNumber
        liveTasks[number] = laneName
        emit("task.spawn", laneName)
        let task = Task(name: laneName, executorPreference: executor) {
            await body()
            self.liveTasks[number] = nil
            self.emit("task.end", laneName)
        }
        // A `Task` is its runtime task object: the census keeps it until it finishes.
        census.track(unsafeBitCast(task, to: UnsafeRawPointer.self), name: laneName, createdBy: "simulation.spawn")
        return task
    }

    /// The run's task census, made on first use.
    var census: TaskCensus {
        if let census = taskCensus { return census }
        let census = TaskCensus()
        taskCensus = census
        return census
    }

    /// `verdict`, with the tasks still suspended named when it is a hang: a deadlock of a run with
    /// Swift tasks or GCD work (a model's own lanes name themselves), pending work of a run with Swift
    /// tasks, or the `stays-in-simulation` oracle. Any other verdict as it is.
    func namingSuspendedTasks(_ verdict: Verdict) -> Verdict {
        switch verdict {
        case .deadlock(let message):
            if let census = taskCensus { return .deadlock(message + "; " + census.report()) }
            guard dispatchCapture != nil else { return verdict }
            return .deadlock(message + "; " + TaskCensus.noTasks)
        case .pending(let message):
            guard let census = taskCensus else { return verdict }
            return .pending(message + "; " + census.report())
        case .fail(let oracle, let message) where oracle == "stays-in-simulation":
            return .fail(oracle: oracle, message: message + "; " + (taskCensus?.report() ?? TaskCensus.noTasks))
        default:
            return verdict
        }
    }

    /// Async tasks started with `spawn` that have not finished.
    public var liveTaskCount: Int { liveTasks.count }
}
