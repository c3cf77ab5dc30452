import SimCore
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
/// as their label; an actor's drain job (or a `Task.yield()`'s continuation job) runs on a lane of
/// the task `N` that scheduled it (the caller whose hop to the idle actor needed it), `N/actor`, or
/// `N/actor#2`, … while N's earlier such jobs have not finished (one at a time per lane); a sleep's
/// timer fires on the lane of the task that slept. Runtime task ids are only keys for live tasks,
/// never recorded.
final class AsyncCapture: JobRouter, @unchecked Sendable {
    /// Unowned without a check: the simulation holds this capture for its whole life
    /// (`jobContexts`), and a checked `unowned` retained and released it at every use.
    unowned(unsafe) let simulation: Simulation
    let route: CaptureRoute
    let mainLane: LaneID
    let labelStart: Symbol
    let labelResume: Symbol
    let labelActor: Symbol
    let labelSleep: Symbol

    /// This run's tasks by runtime task id: name, lane, and the name as a label on `main`.
    private let names = AddressMap<TaskEntry>()
    /// Tasks created so far in each job (by `N` or `N@j`) or from each closure (by `N>closure`), for the
    /// next child's ordinal.
    @exclusivity(unchecked) private var childCounts: [String: Int] = [:]
    /// Tasks created so far with each `Task(name:)` name, for the `#k` of a repeated name.
    @exclusivity(unchecked) private var givenNameCounts: [String: Int] = [:]
    /// Every task name given in this run (looked up, never iterated).
    @exclusivity(unchecked) private var usedNames: Set<String> = []
    // Every `var` here is read and written only on the simulation's thread (work from other threads
    // goes through `escapes`), so none needs the dynamic exclusivity check: it cost a
    // `swift_beginAccess` with its thread-local access set about seven times per job.
    /// Names a `Task(name:)` name cannot take as it is: the body's and the main actor's lane.
    private static let reservedNames: Set<String> = ["task", "main"]
    /// Jobs run so far for each task, by name (for a creator's, found by name when a task is
    /// made); the task's entry holds the same counter, so a job counts itself without hashing a name.
    @exclusivity(unchecked) private var jobCounts: [String: JobCounter] = [:]

    /// How many jobs of a task have run: the creating job's index in a child's job-based name.
    final class JobCounter {
        @exclusivity(unchecked) var count = 0
    }
    /// Each task's lanes for the jobs it schedules that belong to no task (actor drain jobs, the
    /// continuation job of `Task.yield()`), by the task's name.
    @exclusivity(unchecked) private var helperLanes: [String: HelperLanes] = [:]
    /// The task whose job is running now (`task` before the first job: the body's creator).
    @exclusivity(unchecked) private var running = "task"
    /// The instant the running job started, read only where the clocks stay real (`SleepDelay`): on
    /// virtual clocks a sleep's delay is exact and needs no bound.
    @exclusivity(unchecked) fileprivate(set) var jobStartContinuous = ContinuousClock.now
    /// Whether the scenario's body has returned.
    @exclusivity(unchecked) var bodyFinished = false
    /// Each default actor's drain jobs pending or running in this run, by the actor's address: an
    /// actor with none is idle, and a job hopping onto it takes it there and then (`ActorEntry`).
    let drainsByActor = AddressMap<Int>()
    /// The runtime ids of tasks stopped in a hop onto an actor while jobs that go first run beneath
    /// them (`ActorEntry`), innermost last: the runtime still calls such a task current, but none of
    /// the jobs run meanwhile is its.
    @exclusivity(unchecked) var enteringTasks: [UInt64] = []

    /// The task whose code runs now, by runtime id (0: none), as the runtime says, except a task
    /// stopped in a hop onto an actor (`enteringTasks`): a job of no task run beneath it is no job of it.
    @inline(__always)
    var currentTaskID: UInt64 {
        let id = ExecutorCapture.currentTaskID
        return enteringTasks.isEmpty || !enteringTasks.contains(id) ? id : 0
    }

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
        simulation.asyncCapture = self
    }

    deinit {
        ExecutorCapture.unregister(names.allKeys.map { UInt64($0) })
        ExecutorCapture.unbindPinned(from: self)
    }

    // The jobs and timers posted below capture `self` as `unowned(unsafe)`: no reference counting
    // per job. That is safe because only the simulation holds them (in its lanes and timers) and the
    // simulation holds this capture for as long as it lives (`jobContexts`). A plain `unowned` took
    // the side-table path four times a job (the capture has a side table: the routing slots refer
    // to it weakly), ~13% of an async job's instructions with the rest of the reference counting.

    // MARK: Placing jobs

    /// A task of this run, as its jobs are placed and run. An object, looked up and passed by one
    /// reference (a struct of its name, counter and lanes was copied, with a retain of each, at
    /// every look-up). Its jobs for the global executor wait here, in the order posted to the
    /// task's lane, so that the body posted to the simulation captures this one object and no
    /// closure context is allocated per job (with the capture, the job and the task's entry it was
    /// a malloc and a free per job). The runtime enqueues a task once until it runs, so one job is
    /// usually waiting; more wait in posting order.
    final class TaskEntry {
        /// Unretained: the capture outlives its tasks' entries and lanes (it holds them), and an
        /// `unowned(unsafe)` reference was still retained for each call through it.
        let capture: Unmanaged<AsyncCapture>
        let name: String
        let lane: LaneID
        let mainLabel: Symbol
        let jobs: JobCounter
        /// The task's lanes for jobs of no task, once it has scheduled one (the same object as
        /// `AsyncCapture.helperLanes` holds by its name, found here without hashing the name).
        @exclusivity(unchecked) var helpers: HelperLanes?
        @exclusivity(unchecked) private var waiting: [CapturedJob] = []
        @exclusivity(unchecked) private var next = 0

        init(capture: AsyncCapture, name: String, lane: LaneID, mainLabel: Symbol, jobs: JobCounter) {
            self.capture = Unmanaged.passUnretained(capture)
            self.name = name
            self.lane = lane
            self.mainLabel = mainLabel
            self.jobs = jobs
        }

        func hold(_ job: CapturedJob) { waiting.append(job) }

        /// Runs the job posted first of those waiting.
        func runNext() {
            let job = waiting[next]
            next += 1
            if next == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                next = 0
            }
            capture._withUnsafeGuaranteedRef { $0.run(job, as: name, counter: jobs, main: false) }
        }
    }

    /// The job counter of the task named `name` (made on first use).
    private func jobCounter(named name: String) -> JobCounter {
        if let known = jobCounts[name] { return known }
        let counter = JobCounter()
        jobCounts[name] = counter
        return counter
    }

    /// This run's task with runtime id `id`, if it has one (inlined, so that the caller's use of the
    /// entry needs no retain of its own).
    @inline(__always)
    private func entry(of id: UInt64) -> TaskEntry? { names[UInt(id)] }

    /// A job's task, named (a new task) on first sight.
    @inline(__always)
    private func task(of job: CapturedJob, current: UInt64) -> (entry: TaskEntry, isNew: Bool)? {
        guard job.taskID != 0 else { return nil }
        if let known = entry(of: job.taskID) { return (known, false) }
        return (newTask(of: job, current: current), true)
    }

    /// Names a task seen for the first time and starts keeping it.
    private func newTask(of job: CapturedJob, current: UInt64) -> TaskEntry {
        let name: String
        let creator = currentTaskName(current)
        let jobIndex = max(1, jobCounts[creator]?.count ?? 0)
        let creatingJob = jobIndex == 1 ? creator : "\(creator)@\(jobIndex)"
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
            let ordinal = (childCounts[creatingJob] ?? 0) + 1
            childCounts[creatingJob] = ordinal
            name = unused("\(creatingJob).\(ordinal)")
        }
        let entry = TaskEntry(
            capture: self, name: name, lane: simulation.lane(name), mainLabel: simulation.symbol(name),
            jobs: jobCounter(named: name))
        names[UInt(job.taskID)] = entry
        usedNames.insert(name)
        ExecutorCapture.register(job.taskID, to: self)
        simulation.emit("task.create", name, ["by": .text(names.count == 1 ? "scenario" : creator)])
        simulation.census.track(
            unsafeBitCast(job.job, to: UnsafeRawPointer.self), name: name,
            createdBy: names.count == 1 ? "the scenario" : "job \(creatingJob)")
        return entry
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

    /// Whether an actor's drain job is running (its callers are then noted).
    @exclusivity(unchecked) private var inDrain = false
    /// While an actor's drain job runs: the runtime ids of the tasks whose calls it has been seen
    /// running so far (ids and names are one to one while the tasks live). Reused from drain to drain.
    @exclusivity(unchecked) private var drainCallers: [UInt64] = []
    /// While an actor's drain job runs: the actor's type, when the runtime's job shows it.
    /// (Unowned without a check: `actorNames` holds every spelling for the capture's life.)
    @exclusivity(unchecked) private unowned(unsafe) var drainActor: ActorSpelling?
    /// While an actor's drain job runs: the actor it drains (only compared, never dereferenced).
    @exclusivity(unchecked) private var drainInstance: UnsafeRawPointer?
    /// While an actor's drain job runs: the task that scheduled it and the method it called then.
    @exclusivity(unchecked) private var drainOwnerMethod: (caller: UInt64, method: Int)?
    /// Actor types already spelled, by type (one spelling per type and run, not per job).
    private let actorNames = AddressMap<ActorSpelling>()
    /// `actor.call` and its `actor` key, once an `actor.call` event interned them.
    @exclusivity(unchecked) private var actorCallKind: Symbol?
    @exclusivity(unchecked) private var actorKey: Symbol?

    /// An actor type's name, and its symbol once an `actor.call` event interned it.
    final class ActorSpelling {
        let name: String
        @exclusivity(unchecked) var symbol: Symbol?
        /// For each resume function seen, the index in `methodNames` of the method of this actor it
        /// is a part of, or -1 (none): a drain job looks its caller's functions up by address, and an
        /// integer, not a string, comes back for each frame walked.
        let methodIndex = AddressMap<Int>()
        @exclusivity(unchecked) var methodNames: [String] = []
        /// The label of a job's entry onto an idle actor of this type (`enter ProfileCache`), once made.
        @exclusivity(unchecked) var entryLabel: Symbol?
        /// The last chains of resume functions looked up whole and what they gave (a method's
        /// index, or -1): the answer depends only on the functions, and a caller leaving the actor
        /// after its method returned has no frame of it, so every frame of its chain was looked up
        /// for nothing, at each actor call, on the same few chains.
        /// (Fixed storage owned here: an array property retained and released its buffer per look.)
        private let recentChains = UnsafeMutablePointer<ResumeChain>.allocate(capacity: 4)
        private let recentMethods = UnsafeMutablePointer<Int>.allocate(capacity: 4)
        private let recentHashes = UnsafeMutablePointer<UInt>.allocate(capacity: 4)
        @exclusivity(unchecked) private var recentCount = 0
        @exclusivity(unchecked) private var nextRecent = 0
        deinit {
            recentChains.deinitialize(count: recentCount)
            recentChains.deallocate()
            recentMethods.deallocate()
            recentHashes.deallocate()
        }
        init(_ name: String) { self.name = name }

        /// The index of `method` in `methodNames` (added on first sight).
        func index(of method: String) -> Int {
            if let known = methodNames.firstIndex(of: method) { return known }
            methodNames.append(method)
            return methodNames.count - 1
        }

        /// What `chain` gave last time, if it is one of the recent ones.
        func recent(_ chain: ResumeChain) -> Int?? {
            for position in 0..<recentCount where recentHashes[position] == chain.hash && recentChains[position] == chain {
                let method = recentMethods[position]
                return .some(method >= 0 ? method : nil)
            }
            return nil
        }

        func remember(_ chain: ResumeChain, method: Int?) {
            if recentCount < 4 {
                (recentChains + recentCount).initialize(to: chain)
                recentMethods[recentCount] = method ?? -1
                recentHashes[recentCount] = chain.hash
                recentCount += 1
            } else {
                recentChains[nextRecent] = chain
                recentMethods[nextRecent] = method ?? -1
                recentHashes[nextRecent] = chain.hash
                nextRecent = (nextRecent + 1) % 4
            }
        }
    }

    func actorName(_ type: AnyObject.Type) -> ActorSpelling {
        let key = UInt(bitPattern: ObjectIdentifier(type))
        if let known = actorNames[key] { return known }
        let spelling = ActorSpelling(_typeName(type, qualified: false))
        actorNames[key] = spelling
        return spelling
    }

    /// Inside a drain job, names the task whose actor call runs now (once per task and drain job) with
    /// an `actor.call` event on the drain's lane, the actor's type (`actor=`, read from the drain
    /// job) and the method (`method=`, named by the task's resume functions when one is the actor's):
    /// the drain is named after the caller that scheduled it, but it runs every call queued on the
    /// actor meanwhile. A call is seen when it enqueues or creates something (its return hop to the
    /// caller's executor at the latest, when the task already resumes in its caller: then the method
    /// seen as the drain was scheduled names it, for the caller that scheduled it).
    private func noteActorCaller(enqueueing job: CapturedJob, current id: UInt64) {
        guard inDrain else { return }
        guard id != 0, let caller = entry(of: id), !drainCallers.contains(id) else { return }
        drainCallers.append(id)
        let method = drainActor.flatMap { actor in
            (ActorMethod.resumed(of: actor, chainIsFresh: chainIsFresh(enqueueing: job, current: id))
                ?? (drainOwnerMethod?.caller == id ? drainOwnerMethod?.method : nil)).map { actor.methodNames[$0] }
        }
        emitActorCall(by: caller, method: method)
    }

    /// Whether the current task (runtime id `current`) has just suspended, so that its async context
    /// chain is all live (`ExecutorCapture.freshResumeChain`): it enqueues its own next job, or it
    /// gives up the actor whose drain job runs (the runtime schedules a new drain of that actor only
    /// when it is unlocked with work pending, and inside its drain only a task leaving it unlocks it).
    private func chainIsFresh(enqueueing job: CapturedJob, current: UInt64) -> Bool {
        if job.taskID != 0 { return job.taskID == current }
        guard inDrain, let running = drainInstance, let drained = job.drainedActor else { return false }
        return drained == running
    }

    /// The `actor.call` event. The first of each shape is emitted by names, which interns its texts in
    /// the order the trace defines them; after that by the symbols kept (the caller's name is its
    /// `mainLabel`, interned when the task was named), without hashing four strings per drain job.
    private func emitActorCall(by caller: TaskEntry, method: String?) {
        if let actor = drainActor, let method {
            // With its method: by names (a method is spelled once per call seen, not per job).
            simulation.emit("actor.call", caller.name, ["actor": .text(actor.name), "method": .text(method)])
            actorKey = actorKey ?? simulation.symbols.lookup("actor")
            actor.symbol = actor.symbol ?? simulation.symbols.lookup(actor.name)
            actorCallKind = actorCallKind ?? simulation.symbols.lookup("actor.call")
            return
        }
        if let actor = drainActor {
            if let kind = actorCallKind, let key = actorKey, let value = actor.symbol {
                var fields = EventFields()
                fields.append(EventField(key, .symbol(value)))
                simulation.emit(kind, subject: caller.mainLabel, fields: fields)
                return
            }
            simulation.emit("actor.call", caller.name, ["actor": .text(actor.name)])
            actorKey = simulation.symbols.lookup("actor")
            actor.symbol = simulation.symbols.lookup(actor.name)
        } else {
            if let kind = actorCallKind {
                simulation.emit(kind, subject: caller.mainLabel)
                return
            }
            simulation.emit("actor.call", caller.name)
        }
        actorCallKind = simulation.symbols.lookup("actor.call")
    }

    /// The task whose code runs now: the runtime's current task (`current`, its id read once per job
    /// placed) when it is one of this run's (inside an actor's drain job that is the task whose call
    /// the actor runs), else the running job's task.
    private func currentTaskName(_ current: UInt64) -> String {
        if current != 0, let entry = entry(of: current) { return entry.name }
        return running
    }

    func enqueueGlobal(_ job: CapturedJob) {
        let current = currentTaskID
        noteActorCaller(enqueueing: job, current: current)
        if !sleeping.isEmpty { noteCancelledSleep(of: job.taskID) }
        guard let (task, isNew) = task(of: job, current: current) else {
            let lanes = helperLanes(current)
            let helper = lanes.take(simulation, capture: self)
            let drained = job.drainedActor
            let actor = drained.map { actorName(type(of: Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue())) }
            // A caller that hopped to the idle actor resumes in the method it called.
            // (Not while the runtime's current task is one waiting to enter an actor: its chain is not this job's.)
            let method =
                current == 0 && !enteringTasks.isEmpty
                ? nil
                : actor.flatMap {
                    ActorMethod.resumed(of: $0, chainIsFresh: chainIsFresh(enqueueing: job, current: current))
                }
            helper.hold(job, actor: actor, drained: drained, ownerMethod: method.map { (current, $0) })
            if let drained { drainScheduled(drained) }
            simulation.post(helper.lane, labelActor) { helper.run() }
            return
        }
        task.hold(job)
        simulation.post(task.lane, isNew ? labelStart : labelResume) { task.runNext() }
    }

    /// A task's lanes for jobs of no task: `N/actor`, `N/actor#2`, … A job takes the first whose
    /// last job has finished, so a lane holds one such job at a time (no order among them is lost),
    /// and the lanes are as many as such jobs of `N` were ever pending at once (not one per job: a
    /// lane per job, named by a count, made a name, a symbol and a lane per `Task.yield()` and per
    /// actor call, and held them all to the run's end).
    final class HelperLanes {
        let owner: String
        @exclusivity(unchecked) var lanes: [HelperLane] = []
        init(owner: String) { self.owner = owner }

        /// The first free lane, marked busy (a new lane when none is free).
        func take(_ simulation: Simulation, capture: AsyncCapture) -> HelperLane {
            for lane in lanes where !lane.busy {
                lane.busy = true
                return lane
            }
            let ordinal = lanes.count + 1
            let lane = HelperLane(
                capture: capture, owner: owner,
                lane: simulation.lane(ordinal == 1 ? "\(owner)/actor" : "\(owner)/actor#\(ordinal)"))
            lanes.append(lane)
            return lane
        }
    }

    /// One of a task's lanes for jobs of no task, and the one job on it with what its drain needs:
    /// the body posted to the simulation captures this one object, so no closure context is
    /// allocated per job.
    final class HelperLane {
        /// Unretained: the capture outlives its tasks' entries and lanes (it holds them), and an
        /// `unowned(unsafe)` reference was still retained for each call through it.
        let capture: Unmanaged<AsyncCapture>
        let owner: String
        let lane: LaneID
        /// From `take` until its job has finished running.
        @exclusivity(unchecked) var busy = true
        @exclusivity(unchecked) private var job: CapturedJob?
        @exclusivity(unchecked) private unowned(unsafe) var actor: ActorSpelling?
        @exclusivity(unchecked) private var drained: UnsafeRawPointer?
        @exclusivity(unchecked) private var ownerMethod: (caller: UInt64, method: Int)?

        init(capture: AsyncCapture, owner: String, lane: LaneID) {
            self.capture = Unmanaged.passUnretained(capture)
            self.owner = owner
            self.lane = lane
        }

        func hold(
            _ job: CapturedJob, actor: ActorSpelling?, drained: UnsafeRawPointer?,
            ownerMethod: (caller: UInt64, method: Int)?
        ) {
            self.job = job
            self.actor = actor
            self.drained = drained
            self.ownerMethod = ownerMethod
        }

        func run() {
            let job = job!
            self.job = nil
            let drained = drained
            capture._withUnsafeGuaranteedRef {
                $0.runDrain(job, as: owner, actor: actor, drained: drained, ownerMethod: ownerMethod)
                if let drained { $0.drainFinished(drained) }
            }
            actor = nil
            ownerMethod = nil
            busy = false
        }
    }

    /// The lanes for jobs of no task of the task whose code runs now (`currentTaskName`).
    private func helperLanes(_ current: UInt64) -> HelperLanes {
        let entry = current != 0 ? entry(of: current) : nil
        if let known = entry?.helpers { return known }
        let owner = entry?.name ?? running
        let lanes = helperLanes[owner] ?? HelperLanes(owner: owner)
        helperLanes[owner] = lanes
        entry?.helpers = lanes
        return lanes
    }

    func enqueueMain(_ job: CapturedJob) {
        let current = currentTaskID
        noteActorCaller(enqueueing: job, current: current)
        if !sleeping.isEmpty { noteCancelledSleep(of: job.taskID) }
        guard let (task, _) = task(of: job, current: current) else {
            simulation.post(mainLane, labelActor) { [unowned(unsafe) self] in
                run(job, as: running, counter: nil, main: true)
            }
            return
        }
        simulation.post(mainLane, task.mainLabel) { [unowned(unsafe) self] in
            run(job, as: task.name, counter: task.jobs, main: true)
        }
    }

    /// A sleep whose timer has not fired, by the sleeping task's runtime id.
    private struct PendingSleep {
        let timer: TimerHandle
        let deadline: Int64
        let owner: String
        let job: CapturedJob
    }
    @exclusivity(unchecked) private var sleeping: [UInt64: PendingSleep] = [:]

    func enqueueTimed(_ job: CapturedJob, delay: Duration) {
        let sleeper = currentTaskID
        noteActorCaller(enqueueing: job, current: sleeper)
        let owner = entry(of: job.taskID)?.name ?? currentTaskName(sleeper)
        simulation.emit("task.sleep", owner, ["for": .int(Int(delay.nanosecondsClamped))])
        let deadline = simulation.now &+ delay.nanosecondsClamped
        let timer = simulation.schedule(at: deadline, on: simulation.lane(owner), "task.sleep") { [unowned(unsafe) self] in
            sleeping[sleeper] = nil
            run(job, as: owner, counter: jobCounter(named: owner), main: false)
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
            [unowned(unsafe) self] in
            run(job, as: owner, counter: nil, main: false)
        }
    }

    func enqueueForeign(_ job: CapturedJob, what: String) {
        let task = names[UInt(job.taskID)]?.name ?? "a task of this run"
        escapes.withLock { $0.append("\(what) (task \(task))") }
        escapeSignal.add(1, ordering: .releasing)
    }

    /// Runs a job of no task (an actor's drain, a continuation) with the drain's actor, the actor
    /// instance and the method its scheduling caller called, as `noteActorCaller` reads them.
    fileprivate func runDrain(
        _ job: CapturedJob, as owner: String, actor: ActorSpelling?, drained: UnsafeRawPointer?,
        ownerMethod: (caller: UInt64, method: Int)?
    ) {
        drainActor = actor
        drainInstance = drained
        drainOwnerMethod = ownerMethod
        defer {
            drainActor = nil
            drainInstance = nil
            drainOwnerMethod = nil
        }
        run(job, as: owner, counter: nil, main: false)
    }

    /// Runs a job as `task`'s, counted by `counter`; a drain job (no counter) runs other tasks' jobs
    /// and is not counted among its caller's jobs, so that an actor's queue does not shift the
    /// caller's children.
    fileprivate func run(_ job: CapturedJob, as task: String, counter: JobCounter?, main: Bool) {
        let isTaskJob = counter != nil
        running = task
        counter?.count += 1
        inDrain = !isTaskJob
        if !drainCallers.isEmpty { drainCallers.removeAll(keepingCapacity: true) }
        defer { inDrain = false }
        if !VirtualClocks.areVirtual { jobStartContinuous = ContinuousClock.now }
        if main { job.runMain() } else { job.runGlobal() }
        simulation.taskCensus?.after(job: unsafeBitCast(job.job, to: UnsafeRawPointer.self), isTaskJob: isTaskJob)
    }

    // MARK: The end of a run

    /// What left the run, if anything: checked when the run goes quiet. Each escape is also noted as
    /// an `escape` the run did not control.
    ///
    /// A body that has not finished when the run is quiet either waits on something nothing in the
    /// run will do (a hang), or on work that left the run and may still come back from outside. The
    /// run tells which from what it knows, without the wall clock: a task of the run that the
    /// runtime says is running or queued while every lane is empty is elsewhere (an escape, named at
    /// once); with the task objects read, GCD under the scheduler and no thread or run-loop work seen
    /// outside it, nothing outside holds the run's work, so nothing can come back (a hang, at once).
    func escapeReport() -> String? {
        if !bodyFinished && escapeSignal.load(ordering: .acquiring) == 0 {
            if let away = simulation.taskCensus?.awayFromRun() {
                escapes.withLock { $0.append(away) }
            } else if outsideWorkMayComeBack {
                // The one real-time wait left: work of the run is out of the scheduler's sight (GCD
                // not under it in this process, task objects not read, or a thread or run-loop work
                // seen running outside), so only waiting tells whether it comes back. Bounded.
                Self.outsideWaits.add(1, ordering: .relaxed)
                var waited = 0
                while escapeSignal.load(ordering: .acquiring) == 0 && waited < Self.outsideWaitMilliseconds {
                    RealSleep.milliseconds(5)
                    waited += 5
                }
            }
        }
        let seen = escapes.withLock { $0 }
        for escape in seen { simulation.noteUncontrolled(.escape, escape) }
        if !seen.isEmpty {
            simulation.taskCensus?.framesNotRead = "work of this run ran outside the simulation: its frames may be moving"
        }
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

    /// The longest real time a quiet run with an unfinished body waits for work that left it to come
    /// back, where nothing else can tell (`escapeReport`).
    static let outsideWaitMilliseconds = 1_000

    /// How many quiet runs of this process waited real time for work outside them (evidence for
    /// tests that a run which can tell does not wait).
    static let outsideWaits = Atomic<Int>(0)

    /// Whether work of the run may be running where the run cannot see it, so that an unfinished
    /// body might still be resumed from outside: the runtime's task objects are not read here, GCD
    /// or threads are not under the scheduler in this process (a `Thread` would run unseen), or the
    /// run saw a thread or run-loop work it does not control.
    var outsideWorkMayComeBack: Bool {
        !TaskCensus.isReadable || !DispatchCapturing.isActive || !ThreadsCapture.isActive
            || simulation.uncontrolled.contains { $0.kind == .thread || $0.kind == .runLoop }
    }
}

/// On carriers a job can pause mid-way while others run: its task name, drain callers, actor and
/// method come back with it.
extension AsyncCapture: CarrierJobContext {
    func saveJobContext() -> Any {
        SavedJob(
            running: running, callers: inDrain ? drainCallers : nil, actor: drainActor, instance: drainInstance,
            ownerMethod: drainOwnerMethod, start: jobStartContinuous)
    }

    func restoreJobContext(_ saved: Any) {
        guard let saved = saved as? SavedJob else { return }
        running = saved.running
        inDrain = saved.callers != nil
        drainCallers = saved.callers ?? []
        drainActor = saved.actor
        drainInstance = saved.instance
        drainOwnerMethod = saved.ownerMethod
        jobStartContinuous = saved.start
    }

    private struct SavedJob {
        let running: String
        let callers: [UInt64]?
        let actor: ActorSpelling?
        let instance: UnsafeRawPointer?
        let ownerMethod: (caller: UInt64, method: Int)?
        let start: ContinuousClock.Instant
    }
}

/// The method of an actor a task's resume function is part of. Naming a function is string work
/// (demangling, a substring search): done per drain job it was ~90% of an async job's instructions in
/// `bench --only async-platform`, so a function is named once per process and matched once per
/// actor and run (`AsyncCapture.ActorSpelling.methodIndex`, looked up by address).
package enum ActorMethod {
    /// Each resume function's readable name, once per process.
    private static let names = Mutex<[UInt: String]>([:])
    /// Each (actor type, resume function) matched, once per process: a run's `ActorSpelling` starts
    /// empty, and matching a name (a substring search) again in every run was ~14% of a schedule of
    /// `bench --only viewmodel` (20,000 short runs).
    private static let matched = Mutex<[MatchKey: String?]>([:])

    private struct MatchKey: Hashable {
        let actor: String
        let function: UInt
    }

    /// `load(id:)` when one of the functions the current task resumes in (innermost first) is a part
    /// of `actor`'s method `load(id:)` (`(2) resume partial function for ProfileCache.load(id:)`); nil
    /// when none is a method of it, or where they cannot be named.
    /// (Its index in `actor.methodNames`: a drain job carries an integer, not a string.)
    static func resumed(of actor: AsyncCapture.ActorSpelling, chainIsFresh: Bool) -> Int? {
        if chainIsFresh, let chain = ExecutorCapture.freshResumeChain {
            if let known = actor.recent(chain) { return known }
            var found: Int?
            for position in 0..<chain.count {
                if let method = method(of: actor, resumingIn: chain[position]) {
                    found = method
                    break
                }
            }
            actor.remember(chain, method: found)
            return found
        }
        return ExecutorCapture.firstResumeFunction {
            method(of: actor, resumingIn: UInt(bitPattern: $0))
        }
    }

    /// The index of the method of `actor` that `function` is a part of, or nil.
    private static func method(of actor: AsyncCapture.ActorSpelling, resumingIn key: UInt) -> Int? {
        if let known = actor.methodIndex[key] { return known >= 0 ? known : nil }
        let method: String?
        let matchKey = MatchKey(actor: actor.name, function: key)
        if let known = matched.withLock({ $0[matchKey] }) {
            method = known
        } else {
            let name =
                names.withLock { $0[key] }
                ?? {
                    let named = UnsafeRawPointer(bitPattern: key).flatMap { CodeSymbol.at($0)?.function } ?? ""
                    names.withLock { $0[key] = named }
                    return named
                }()
            method = Self.method(of: actor.name, in: name)
            matched.withLock { $0[matchKey] = .some(method) }
        }
        let index = method.map(actor.index(of:)) ?? -1
        actor.methodIndex[key] = index
        return index >= 0 ? index : nil
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

/// The resume functions of a task's async context chain, innermost first (at most `capacity`, the
/// walk's depth): compared whole, so a chain seen before is answered without a look-up per frame.
/// Fixed storage and a running hash, so building and comparing one costs a few instructions a frame.
struct ResumeChain: Equatable {
    static let capacity = 8
    private var functions: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0
    /// A hash of the functions so far: most comparisons end on it.
    private(set) var hash: UInt = 0

    mutating func append(_ function: UInt) {
        withUnsafeMutableBytes(of: &functions) { $0.storeBytes(of: function, toByteOffset: count * 8, as: UInt.self) }
        hash = (hash &+ function) &* 0x9E37_79B9_7F4A_7C15
        count += 1
    }

    subscript(position: Int) -> UInt {
        withUnsafeBytes(of: functions) { $0.load(fromByteOffset: position * 8, as: UInt.self) }
    }

    /// Field by field (the slots past `count` are 0 in both): reading by position copied the whole
    /// tuple for each element.
    static func == (lhs: ResumeChain, rhs: ResumeChain) -> Bool {
        let (l, r) = (lhs.functions, rhs.functions)
        return lhs.hash == rhs.hash && lhs.count == rhs.count && l.0 == r.0 && l.1 == r.1 && l.2 == r.2
            && l.3 == r.3 && l.4 == r.4 && l.5 == r.5 && l.6 == r.6 && l.7 == r.7
    }
}
