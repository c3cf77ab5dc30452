import SimCore
import CSimInterpose

/// Entering an idle actor is a decision (issue #40, DESIGN §12).
///
/// A job that hops onto a default actor nobody holds takes it there and then, inside the job: on one
/// thread nothing else can reach the actor first, so every schedule of "start a task that calls the
/// actor, then call the actor" takes the same order. On real threads the task just started (or any
/// other ready job) can reach the actor first. CSimInterpose's `swift_task_switch` asks the run at
/// each hop onto a default actor; when the actor is idle and other jobs are ready, the moment is a
/// recorded pick: the entering job itself (`task/enter ServiceGroup#1`, which `fifo` takes: the order
/// simrun always gave) or a ready job, which then runs first — nested inside the entering job, its
/// lane held meanwhile — before the pick is offered again while the actor stays idle. So both orders
/// are explored, the trace shows the pick, and `explain` can name it.
///
/// On carriers with lock preemption (`--preempt`) the entering carrier pauses instead, as at a lock,
/// and the pick is among the carriers. On carriers without preemption, and where `swift_task_switch`
/// is not simrun's (``isInterposed``), the entry is no decision: the job takes the actor at once.
///
/// A job run first here runs to its end before the entering job goes on: one that then blocks
/// waiting for the entering job (a semaphore the entering job would signal) ends the run in a
/// `deadlock` verdict that real threads would not reach; carriers (`--preempt`) take turns instead.
public enum ActorEntry {
    /// Whether hops onto actors reach the scheduler in this process (Linux: CSimInterpose's
    /// `swift_task_switch`).
    public static var isInterposed: Bool { simrun_actor_entry_interposed() != 0 }

    /// Hops onto a default actor made on a run's thread so far in this process.
    public static var hops: UInt64 { simrun_actor_hops() }

    /// Entries deciding inside one another at most (a job run first may enter an idle actor too);
    /// past it an entry takes the actor at once.
    public static let maxNesting = 8
}

extension AsyncCapture {
    /// A drain job of `actor` was scheduled: the actor is taken until it has run.
    @inline(__always)
    func drainScheduled(_ actor: UnsafeRawPointer) {
        let key = UInt(bitPattern: actor)
        drainsByActor[key] = (drainsByActor[key] ?? 0) + 1
    }

    /// A drain job of `actor` has run.
    @inline(__always)
    func drainFinished(_ actor: UnsafeRawPointer) {
        let key = UInt(bitPattern: actor)
        drainsByActor[key] = max(0, (drainsByActor[key] ?? 1) - 1)
    }

    /// No drain job of `actor` is pending or running in this run: a hop onto it takes it at once.
    func actorIsIdle(_ actor: UnsafeRawPointer) -> Bool { (drainsByActor[UInt(bitPattern: actor)] ?? 0) == 0 }

    /// `enter ServiceGroup`: the label of the entering job's candidate, one per actor type and run.
    func entryLabel(of actor: UnsafeRawPointer) -> Symbol {
        let spelling = actorName(type(of: Unmanaged<AnyObject>.fromOpaque(actor).takeUnretainedValue()))
        if let known = spelling.entryLabel { return known }
        let label = simulation.symbol("enter \(spelling.name)")
        spelling.entryLabel = label
        return label
    }
}

extension Simulation {
    /// The running job's next hop onto an actor takes it at once, with no decision: what a call
    /// checker that records a call as invoked just before its hop onto the object needs (the call's
    /// invocation then is its entry, so invocation order is the actor's order: `AtomicityCheck`).
    func entersNextActorAtOnce() {
        entryWaivedInJob = currentJobEvent
    }

    /// A job of this run hops onto the default actor `actor`: when the actor is idle and another job
    /// is ready, whether that job goes first is a pick (see `ActorEntry`).
    func enteringActor(_ actor: UnsafeRawPointer) {
        guard let capture = asyncCapture, currentLaneIndex >= 0, reportedFailure == nil else { return }
        if entryWaivedInJob != 0 {
            let waived = entryWaivedInJob == currentJobEvent
            entryWaivedInJob = 0
            if waived { return }
        }
        guard capture.actorIsIdle(actor) else { return }
        switch carrierMode {
        case .off:
            guard actorEntryDepth < ActorEntry.maxNesting else { return }
            othersGoFirst(entering: actor, capture: capture)
        case .preemptLocks:
            guard let carriers = carrierSet else { return }
            let label = capture.entryLabel(of: actor)
            carriers.pauseAtActorEntry(label: label) { [symbols] in "\(symbols[label]) (preempted)" }
        case .carriers:
            return
        }
    }

    /// One thread: offers the entering job and every ready job of another lane; runs each job picked
    /// instead (nested, the entering lane held), while the actor stays idle.
    private func othersGoFirst(entering actor: UnsafeRawPointer, capture: AsyncCapture) {
        let lane = currentLaneIndex
        let (event, jobLabel, previous) = (currentJobEvent, currentJobLabel, previousLaneIndex)
        var label: Symbol?
        var held = false
        let hadRules = hasRules
        actorEntryDepth += 1
        capture.enteringTasks.append(ExecutorCapture.currentTaskID)
        defer {
            capture.enteringTasks.removeLast()
            actorEntryDepth -= 1
            if held {
                unpark(laneID(at: lane))
                // Holding the lane made the ready list rebuilt per step; without rules or parked
                // lanes it goes back to being kept up to date (rebuilt once first).
                hasRules = hadRules || hasLaneRules || parkedLaneCount > 0
                readyDirty = true
            }
            previousLaneIndex = previous
        }
        var wentFirst = 0
        while reportedFailure == nil && steps < limits.maxSteps && capture.actorIsIdle(actor) {
            if !held {
                // The entering lane's next jobs wait: its job is still on the stack.
                guard !isParked(laneID(at: lane)) else { return }
                park(laneID(at: lane), reason: "its job entering an actor")
                held = true
            }
            let count = collectCandidates()
            guard count > 0 else { break }
            let entry = label ?? capture.entryLabel(of: actor)
            label = entry
            // The entering job itself, last in the list and first in fifo order (the order simrun gave
            // before the entry was a decision), and the lane that continues (it is running).
            reserveReady(count + 1)
            ready[count] = Candidate(
                lane: laneName(at: lane), label: entry, ordinal: nextOrdinal(lane: lane, label: entry), seq: 0,
                isTimer: false, laneIndex: lane, timerSlot: -1)
            previousLaneIndex = lane
            let chosen = pickCandidate(count + 1)
            if chosen == count { break }
            let contexts = jobContexts.map { $0.saveJobContext() }
            execute(chosen)
            steps += 1
            for (context, saved) in zip(jobContexts, contexts) { context.restoreJobContext(saved) }
            (currentLaneIndex, currentJobEvent, currentJobLabel) = (lane, event, jobLabel)
            wentFirst += 1
            if let failure = checkStep(), reportedFailure == nil { reportedFailure = failure }
        }
        if wentFirst > 0, let label {
            // The entry, after the jobs that went first: `actor.enter ServiceGroup after=1`.
            emit("actor.enter", String(symbols[label].dropFirst("enter ".count)), ["after": .int(wentFirst)])
        }
    }
}

extension CarrierSet {
    /// The carrier holding the turn enters an idle actor: with lock preemption the entry is a point
    /// where another carrier may go first, as at a lock.
    func pauseAtActorEntry(label: Symbol, waiting description: @escaping () -> String) {
        guard paused.count < Self.maxCarriers - 1 else { return }
        pause(.ready, label: label, waiting: description)
    }
}

@_cdecl("simrun_actor_entering")
func simrunActorEntering(_ run: UnsafeMutableRawPointer, _ actor: UnsafeRawPointer) {
    Unmanaged<Simulation>.fromOpaque(run).takeUnretainedValue().enteringActor(actor)
}
