import SimCore

/// What the capture keeps per run: the kernel holds it in `Simulation.hostState` without knowing its
/// type, and the capture reaches it through the properties below. Made on the first write, so that a
/// run that captures nothing allocates nothing for it.
final class RunCaptureState {
    /// The run's Swift tasks not yet seen finished (made when the first is tracked): what a hang names.
    var taskCensus: TaskCensus?
    /// GCD work of this run (made on the first dispatch call on the run's thread; `DispatchCapture`).
    var dispatchCapture: DispatchCapture?
    /// The run's run-loop timers and blocks (Foundation's `Timer`, `RunLoop.perform`), once it has any.
    var runLoopCapture: RunLoopCapture?
    /// A step was picked since the carriers' last decision (its checks are due).
    var carrierStepTaken = false
    /// Per-job state of routers (the running task's name, …), saved when a carrier pauses mid-job.
    var jobContexts: [any CarrierJobContext] = []
    /// The carriers of this run while it runs on them (the park/unpark seam goes through it).
    weak var carrierSet: CarrierSet?
    /// The capture of this run's Swift concurrency, once an async body started (it lives in
    /// `jobContexts` for the simulation's whole life, so it is referred to without counting).
    unowned(unsafe) var asyncCapture: AsyncCapture?
    /// Entries onto an idle actor deciding now, one inside the other (`ActorEntry`).
    var actorEntryDepth = 0
    /// The `sched.pick` event of the job whose next actor entry is no decision (0: none).
    var entryWaivedInJob: EventID = 0
}

extension Simulation {
    /// The capture's state for this run, if anything made it yet.
    @inline(__always)
    var existingCaptureState: RunCaptureState? {
        guard let state = hostState else { return nil }
        return unsafeDowncast(state, to: RunCaptureState.self)
    }

    /// The capture's state for this run, made on first use.
    var captureState: RunCaptureState {
        if let state = existingCaptureState { return state }
        let state = RunCaptureState()
        hostState = state
        return state
    }

    var taskCensus: TaskCensus? {
        get { existingCaptureState?.taskCensus }
        set { captureState.taskCensus = newValue }
    }

    var dispatchCapture: DispatchCapture? {
        get { existingCaptureState?.dispatchCapture }
        set { captureState.dispatchCapture = newValue }
    }

    var runLoopCapture: RunLoopCapture? {
        get { existingCaptureState?.runLoopCapture }
        set { captureState.runLoopCapture = newValue }
    }

    var carrierStepTaken: Bool {
        get { existingCaptureState?.carrierStepTaken ?? false }
        set { captureState.carrierStepTaken = newValue }
    }

    var jobContexts: [any CarrierJobContext] {
        get { existingCaptureState?.jobContexts ?? [] }
        set { captureState.jobContexts = newValue }
        _modify { yield &captureState.jobContexts }
    }

    var carrierSet: CarrierSet? {
        get { existingCaptureState?.carrierSet }
        set { captureState.carrierSet = newValue }
    }

    var asyncCapture: AsyncCapture? {
        get { existingCaptureState?.asyncCapture }
        set { captureState.asyncCapture = newValue }
    }

    var actorEntryDepth: Int {
        get { existingCaptureState?.actorEntryDepth ?? 0 }
        set { captureState.actorEntryDepth = newValue }
    }

    var entryWaivedInJob: EventID {
        get { existingCaptureState?.entryWaivedInJob ?? 0 }
        set { captureState.entryWaivedInJob = newValue }
    }
}
