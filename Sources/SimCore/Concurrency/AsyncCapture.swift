import Synchronization

/// The capture of one run's plain Swift concurrency: it places every job the runtime hands over on a
/// lane of the simulation, turns sleeps into timers on the virtual clock, and turns work that left
/// the run into findings.
///
/// Identities are stable (`TaskNames`, the "Task identities" article): the scenario's body is the
/// task `task`; a task made with `Task(name:)` is named by its name; another task is named by where
/// it was made, its creator, the closure it runs and an ordinal per (creator, closure)
/// (`task>Loader.scenario{1}{3}.1`), so a task added anywhere else, even earlier in the same job,
/// renames no one. Where closures cannot be named (`TaskNames.creationSitesAreRead` false) a task is
/// named after the job that created it: the k-th task created during the j-th job of task `N` is
/// `N.k` when j is 1 and `N@j.k` after. The creator is the task the runtime says is current, also
/// inside an actor's drain job (which runs other tasks' jobs than the one that scheduled it). A
/// task's jobs run on the lane of its name; its main-actor jobs run on the `main` lane with its name
/// as their label; an actor's drain job runs on a lane of its own, `N/actor` then `N/actor#2`, …
/// after the task `N` that scheduled it (the caller whose hop to the idle actor needed it); a sleep's
/// timer fires on the lane of the task that slept. Runtime task ids are only keys for live tasks,
/// never recorded.
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
    /// Tasks created so far in each job (by `N` or `N@j`) or from each closure (by `N>closure`), for the
    /// next child's ordinal.
    private var childCounts: [String: Int] = [:]
    /// Tasks created so far with each `Task(name:)` name, for the `#k` of a repeated name.
    private var givenNameCounts: [String: Int] = [:]
    /// Every task name given in this run (looked up, never iterated).
    private var usedNames: Set<String> = []
    /// Names a `Task(name:)` name cannot take as it is: the body's and the main actor's lane.
    private static let reservedNames: Set<String> = ["task", "main"]
    /// Jobs run so far for each task (by name): the creating job's index in a child's name.
    private var jobCounts: [String: Int] = [:]
    private var actorJobCounts: [String: Int] = [:]
    /// The task whose job is running now (`task` before the first job: the body's creator).
    private var running = "task"
    /// The instant the running job started, read only where the clocks stay real (`SleepDelay`): on
    /// virtual clocks a sleep's delay is exact and needs no bound.
    fileprivate(set) var jobStartContinuous = ContinuousClock.now
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
        simulation.jobContexts.append(self)
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
        let creator = currentTaskName
        if names.isEmpty {
            name = "task"  // the scenario's body
        } else if let given = TaskNames.creating {
            // `Task(name:)`: the user's name is the identity, wherever and whenever the task is made.
            var seen = (givenNameCounts[given] ?? 0) + 1
            var candidate = seen == 1 && !Self.reservedNames.contains(given) ? given : "\(given)#\(seen)"
            // A name is one lane: never two tasks on it (a given name that is another task's name).
            while usedNames.contains(candidate) {
                seen += 1
                candidate = "\(given)#\(seen)"
            }
            givenNameCounts[given] = seen
            name = candidate
        } else if let site = TaskNames.creatingSite {
            // Where it was made: its creator, the creation site, and an ordinal per (creator, site), so
            // a task made elsewhere, even earlier in the same job, renames no other.
            let made = "\(creator)>\(site)"
            let ordinal = (childCounts[made] ?? 0) + 1
            childCounts[made] = ordinal
            name = unused("\(made).\(ordinal)")
        } else {
            let jobIndex = max(1, jobCounts[creator] ?? 0)
            let creatingJob = jobIndex == 1 ? creator : "\(creator)@\(jobIndex)"
            let ordinal = (childCounts[creatingJob] ?? 0) + 1
            childCounts[creatingJob] = ordinal
            name = unused("\(creatingJob).\(ordinal)")
        }
        let entry = TaskEntry(name: name, lane: simulation.lane(name), mainLabel: simulation.symbol(name))
        names[job.taskID] = entry
        usedNames.insert(name)
        ExecutorCapture.register(job.taskID, to: self)
        simulation.emit("task.create", name, ["by": .text(names.count == 1 ? "scenario" : creator)])
        return (entry, true)
    }

    /// `name`, or `name#2`, `name#3`, … when a task was given it with `Task(name:)`: one task per lane.
    private func unused(_ name: String) -> String {
        var candidate = name
        var repeated = 1
        while usedNames.contains(candidate) {
            repeated += 1
            candidate = "\(name)#\(repeated)"
        }
        return candidate
    }

    /// While an actor's drain job runs: the tasks whose calls it has been seen running so far.
    private var drainCallers: [String]?
    /// While an actor's drain job runs: the actor's type name, when the runtime's job shows it.
    private var drainActor: String?
    /// Actor type names already spelled, by type (one spelling per type and run, not per job).
    private var actorNames: [ObjectIdentifier: String] = [:]

    private func actorName(_ type: AnyObject.Type) -> String {
        if let known = actorNames[ObjectIdentifier(type)] { return known }
        let name = _typeName(type, qualified: false)
        actorNames[ObjectIdentifier(type)] = name
        return name
    }

    /// While an actor's drain job runs: the task that scheduled it and the method it called then.
    private var drainOwnerMethod: (caller: String, method: String)?

    /// Inside a drain job, names the task whose actor call runs now (once per task and drain job) with
    /// an `actor.call` event on the drain's lane, the actor's type (`actor=`, read from the drain
    /// job) and the method (`method=`, named by the task's resume function when it is the actor's):
    /// the drain is named after the caller that scheduled it, but it runs every call queued on the
    /// actor meanwhile. A call is seen when it enqueues or creates something (its return hop to the
    /// caller's executor at the latest, when the task already resumes in its caller: then the method
    /// seen as the drain was scheduled names it, for the caller that scheduled it).
    private func noteActorCaller() {
        guard drainCallers != nil else { return }
        let id = ExecutorCapture.currentTaskID
        guard id != 0, let caller = names[id]?.name, drainCallers?.contains(caller) == false else { return }
        drainCallers?.append(caller)
        guard let actor = drainActor else {
            simulation.emit("actor.call", caller)
            return
        }
        let method =
            ActorMethod.resumed(in: ExecutorCapture.currentResumeFunctions, of: actor)
            ?? (drainOwnerMethod?.caller == caller ? drainOwnerMethod?.method : nil)
        if let method {
            simulation.emit("actor.call", caller, ["actor": .text(actor), "method": .text(method)])
        } else {
            simulation.emit("actor.call", caller, ["actor": .text(actor)])
        }
    }

    /// The task whose code runs now: the runtime's current task when it is one of this run's (inside
    /// an actor's drain job that is the task whose call the actor runs), else the running job's task.
    private var currentTaskName: String {
        let id = ExecutorCapture.currentTaskID
        if id != 0, let entry = names[id] { return entry.name }
        return running
    }

    func enqueueGlobal(_ job: CapturedJob) {
        noteActorCaller()
        if !sleeping.isEmpty { noteCancelledSleep(of: job.taskID) }
        guard let (task, isNew) = task(of: job) else {
            let caller = currentTaskName
            let ordinal = (actorJobCounts[caller] ?? 0) + 1
            actorJobCounts[caller] = ordinal
            let lane = simulation.lane(ordinal == 1 ? "\(caller)/actor" : "\(caller)/actor#\(ordinal)")
            let owner = caller
            let actor = job.drainedActorType.map(actorName)
            // A caller that hopped to the idle actor resumes in the method it called.
            let method = actor.flatMap { ActorMethod.resumed(in: ExecutorCapture.currentResumeFunctions, of: $0) }
            simulation.post(lane, labelActor) { [unowned self] in
                drainActor = actor
                drainOwnerMethod = method.map { (owner, $0) }
                defer {
                    drainActor = nil
                    drainOwnerMethod = nil
                }
                run(job, as: owner, main: false, isTaskJob: false)
            }
            return
        }
        simulation.post(task.lane, isNew ? labelStart : labelResume) { [unowned self] in
            run(job, as: task.name, main: false)
        }
    }

    func enqueueMain(_ job: CapturedJob) {
        noteActorCaller()
        if !sleeping.isEmpty { noteCancelledSleep(of: job.taskID) }
        guard let (task, _) = task(of: job) else {
            simulation.post(mainLane, labelActor) { [unowned self] in
                run(job, as: running, main: true, isTaskJob: false)
            }
            return
        }
        simulation.post(mainLane, task.mainLabel) { [unowned self] in run(job, as: task.name, main: true) }
    }

    /// A sleep whose timer has not fired, by the sleeping task's runtime id.
    private struct PendingSleep {
        let timer: TimerHandle
        let deadline: Int64
        let owner: String
        let job: CapturedJob
    }
    private var sleeping: [UInt64: PendingSleep] = [:]

    func enqueueTimed(_ job: CapturedJob, delay: Duration) {
        noteActorCaller()
        let owner = names[job.taskID]?.name ?? currentTaskName
        let sleeper = ExecutorCapture.currentTaskID
        simulation.emit("task.sleep", owner, ["for": .int(Int(delay.nanosecondsClamped))])
        let deadline = simulation.now &+ delay.nanosecondsClamped
        let timer = simulation.schedule(at: deadline, on: simulation.lane(owner), "task.sleep") { [unowned self] in
            sleeping[sleeper] = nil
            run(job, as: owner, main: false)
        }
        if sleeper != 0 { sleeping[sleeper] = PendingSleep(timer: timer, deadline: deadline, owner: owner, job: job) }
    }

    /// A sleeping task resumed before its timer fired: its sleep was cancelled. The timer's job still
    /// runs at the deadline (the runtime's sleep job must run) but it wakes no one, so it is relabelled
    /// `task.sleep.cancelled`: a replay does not count a recorded `task.sleep` decision as followed by
    /// this empty job, and the trace says what happened (`task.sleep.cancelled` when the task woke).
    private func noteCancelledSleep(of taskID: UInt64) {
        guard let pending = sleeping.removeValue(forKey: taskID) else { return }
        simulation.cancel(pending.timer)
        simulation.emit("task.sleep.cancelled", pending.owner, ["deadline": .int(Int(pending.deadline))])
        let job = pending.job
        let owner = pending.owner
        simulation.schedule(at: pending.deadline, on: simulation.lane(owner), "task.sleep.cancelled") {
            [unowned self] in
            run(job, as: owner, main: false, isTaskJob: false)
        }
    }

    func enqueueForeign(_ job: CapturedJob, what: String) {
        let task = names[job.taskID]?.name ?? "a task of this run"
        escapes.withLock { $0.append("\(what) (task \(task))") }
        escapeSignal.add(1, ordering: .releasing)
    }

    /// Runs a job as `task`'s; a drain job (`isTaskJob` false) runs other tasks' jobs and is not
    /// counted among its caller's jobs, so that an actor's queue does not shift the caller's children.
    private func run(_ job: CapturedJob, as task: String, main: Bool, isTaskJob: Bool = true) {
        running = task
        if isTaskJob { jobCounts[task, default: 0] += 1 }
        drainCallers = isTaskJob ? nil : []
        defer { drainCallers = nil }
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

/// On carriers a job can pause mid-way while others run: its task name, drain callers, actor and
/// method come back with it.
extension AsyncCapture: CarrierJobContext {
    func saveJobContext() -> Any { SavedJob(running, drainCallers, drainActor, drainOwnerMethod, jobStartContinuous) }

    func restoreJobContext(_ saved: Any) {
        guard let saved = saved as? SavedJob else { return }
        (running, drainCallers, drainActor, drainOwnerMethod, jobStartContinuous) =
            (saved.running, saved.callers, saved.actor, saved.ownerMethod, saved.start)
    }

    private struct SavedJob {
        let running: String
        let callers: [String]?
        let actor: String?
        let ownerMethod: (caller: String, method: String)?
        let start: ContinuousClock.Instant
        init(
            _ running: String, _ callers: [String]?, _ actor: String?, _ ownerMethod: (caller: String, method: String)?,
            _ start: ContinuousClock.Instant
        ) {
            (self.running, self.callers, self.actor, self.ownerMethod, self.start) =
                (running, callers, actor, ownerMethod, start)
        }
    }
}

/// The method of an actor a task's resume function is part of, named once per function (per process).
package enum ActorMethod {
    private static let known = Mutex<[UInt: String]>([:])

    /// `load(id:)` when one of `functions` (innermost first) is a part of `actor`'s method
    /// `load(id:)` (`(2) resume partial function for ProfileCache.load(id:)`); nil when none is a
    /// method of it, or where they cannot be named.
    static func resumed(in functions: [UnsafeRawPointer], of actor: String) -> String? {
        for function in functions {
            let key = UInt(bitPattern: function)
            let name: String
            if let found = known.withLock({ $0[key] }) {
                name = found
            } else {
                name = CodeSymbol.at(function)?.function ?? ""
                known.withLock { $0[key] = name }
            }
            if let method = method(of: actor, in: name) { return method }
        }
        return nil
    }

    /// The member of `actor` that `function` (`ProfileCache.load(id:)`, `App.ProfileCache.load(id:)`)
    /// names, or nil when it names no member of it (a closure, another type's function).
    package static func method(of actor: String, in function: String) -> String? {
        if function.hasPrefix(actor + ".") { return String(function.dropFirst(actor.count + 1)) }
        guard let range = function.firstRange(of: "." + actor + "."), !function.hasPrefix("closure #"),
            !function.hasPrefix("implicit closure #")
        else { return nil }
        return String(function[range.upperBound...])
    }
}
