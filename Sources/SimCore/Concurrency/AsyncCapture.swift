import Synchronization

/// The capture of one run's plain Swift concurrency: it places every job the runtime hands over on a
/// lane of the simulation, turns sleeps into timers on the virtual clock, and turns work that left
/// the run into findings.
///
/// Identities are stable: the scenario's body is the task `task`; the k-th task created by a task
/// named `N` is `N.k` (`Task {}`, `Task.detached`, task-group children alike). A task's jobs run on the
/// lane of its name; its main-actor jobs run on the `main` lane with its name as their label; an
/// actor's drain job runs on a lane of its own, `N/actor` then `N/actor#2`, … after the task `N` that
/// scheduled it. Runtime task ids are only keys for live tasks, never recorded.
final class AsyncCapture: JobRouter, @unchecked Sendable {
    unowned let simulation: Simulation
    let route: CaptureRoute
    let mainLane: LaneID
    let labelStart: Symbol
    let labelResume: Symbol
    let labelActor: Symbol
    let labelSleep: Symbol

    /// This run's tasks by runtime task id: name, lane, and the name as a label on `main`.
    private var names: [UInt64: TaskEntry] = [:]
    /// Tasks created so far by each task (by name), for the next child's ordinal.
    private var childCounts: [String: Int] = [:]
    private var actorJobCounts: [String: Int] = [:]
    /// The task whose job is running now (`task` before the first job: the body's creator).
    private var running = "task"
    /// The instant the running job started, read only where the clocks stay real (`SleepDelay`): on
    /// virtual clocks a sleep's delay is exact and needs no bound.
    private(set) var jobStartContinuous = ContinuousClock.now
    /// Whether the scenario's body has returned.
    var bodyFinished = false

    /// What escaped, as reported from any thread; jobs that came back from outside are parked here
    /// and never run (the run is already a failure).
    private let escapes = Mutex<[String]>([])
    private let escapeSignal = Atomic<Int>(0)

    init(simulation: Simulation, route: CaptureRoute) {
        self.simulation = simulation
        self.route = route
        mainLane = simulation.lane("main")
        labelStart = simulation.symbol("start")
        labelResume = simulation.symbol("resume")
        labelActor = simulation.symbol("actor.run")
        labelSleep = simulation.symbol("task.sleep")
    }

    deinit { ExecutorCapture.unregister(Array(names.keys)) }

    // MARK: Placing jobs

    /// A task of this run, as its jobs are placed.
    struct TaskEntry {
        let name: String
        let lane: LaneID
        let mainLabel: Symbol
    }

    /// A job's task, named (a new task) on first sight.
    private func task(of job: CapturedJob) -> (entry: TaskEntry, isNew: Bool)? {
        guard job.taskID != 0 else { return nil }
        if let known = names[job.taskID] { return (known, false) }
        let name: String
        if names.isEmpty {
            name = "task"  // the scenario's body
        } else {
            let ordinal = (childCounts[running] ?? 0) + 1
            childCounts[running] = ordinal
            name = "\(running).\(ordinal)"
        }
        let entry = TaskEntry(name: name, lane: simulation.lane(name), mainLabel: simulation.symbol(name))
        names[job.taskID] = entry
        ExecutorCapture.register(job.taskID, to: self)
        simulation.emit("task.create", name, ["by": .text(names.count == 1 ? "scenario" : running)])
        return (entry, true)
    }

    func enqueueGlobal(_ job: CapturedJob) {
        guard let (task, isNew) = task(of: job) else {
            let ordinal = (actorJobCounts[running] ?? 0) + 1
            actorJobCounts[running] = ordinal
            let lane = simulation.lane(ordinal == 1 ? "\(running)/actor" : "\(running)/actor#\(ordinal)")
            let owner = running
            simulation.post(lane, labelActor) { [unowned self] in run(job, as: owner, main: false) }
            return
        }
        simulation.post(task.lane, isNew ? labelStart : labelResume) { [unowned self] in
            run(job, as: task.name, main: false)
        }
    }

    func enqueueMain(_ job: CapturedJob) {
        guard let (task, _) = task(of: job) else {
            simulation.post(mainLane, labelActor) { [unowned self] in run(job, as: running, main: true) }
            return
        }
        simulation.post(mainLane, task.mainLabel) { [unowned self] in run(job, as: task.name, main: true) }
    }

    func enqueueTimed(_ job: CapturedJob, delay: Duration) {
        let owner = running
        simulation.emit("task.sleep", owner, ["for": .int(Int(delay.nanosecondsClamped))])
        simulation.schedule(at: simulation.now &+ delay.nanosecondsClamped, on: simulation.lane(owner), "task.sleep") {
            [unowned self] in
            run(job, as: owner, main: false)
        }
    }

    func enqueueForeign(_ job: CapturedJob, what: String) {
        let task = names[job.taskID]?.name ?? "a task of this run"
        escapes.withLock { $0.append("\(what) (task \(task))") }
        escapeSignal.add(1, ordering: .releasing)
    }

    private func run(_ job: CapturedJob, as task: String, main: Bool) {
        running = task
        if !VirtualClocks.areVirtual { jobStartContinuous = ContinuousClock.now }
        if main { job.runMain() } else { job.runGlobal() }
    }

    // MARK: The end of a run

    /// What left the run, if anything: checked when the run goes quiet. When the body has not
    /// finished, waits (a bounded real time) for work that left the run to come back from outside, so
    /// that the finding names what escaped; then reports a body that can never finish.
    func escapeReport(waitMilliseconds: Int = 1_000) -> String? {
        if !bodyFinished {
            var waited = 0
            while escapeSignal.load(ordering: .acquiring) == 0 && waited < waitMilliseconds {
                RealSleep.milliseconds(5)
                waited += 5
            }
        }
        let seen = escapes.withLock { $0 }
        if let first = seen.first {
            return "work escaped the simulation: \(first)"
                + (seen.count > 1 ? " and \(seen.count - 1) more" : "")
        }
        if !bodyFinished {
            return
                "the scenario's body is suspended and nothing in the simulation can resume it (work escaped the "
                + "simulation on the \(route) route, or a continuation is never resumed)"
        }
        return nil
    }
}
