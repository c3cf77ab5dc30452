import CSimInterpose
import SimCore

/// The kernel's host in a process that links the capture module (``RunHost``): installed by
/// CSimInterpose's load-time constructor (`simrun_executors_at_load`), before `main`. Through it a
/// run binds its thread's clocks and interposers to the run, counts as progress for the stall guard,
/// runs on carriers when its `carrierMode` asks, lets GCD notifications go when the run is quiet, and
/// names the tasks a hang left suspended. Everything it decides is what `Simulation.run()` and
/// `Scenario.run` did before the kernel and the capture were two modules.
final class CaptureHost: RunHost {
    func run(_ scenario: Scenario, variant: String, make: () -> Simulation) -> RunResult {
        guard scenario.concurrency != .kernel else {
            let simulation = make()
            // An async body in a kernel-declared scenario pins its capture to this thread too.
            defer { ExecutorCapture.unbindPinned() }
            VirtualClocks.reading(simulation) { scenario.setUp(simulation, variant) }
            return simulation.run()
        }
        func runHere() -> RunResult {
            let simulation = make()
            VirtualClocks.reading(simulation) { scenario.setUp(simulation, variant) }
            // The run's capture is bound to this thread by its set-up; later jobs are not its own.
            defer { ExecutorCapture.bind(nil) }
            return simulation.run()
        }
        // A run called from inside a task (a test function) runs on a thread of its own: nested inside
        // the caller's job, the runtime would place some of the run's jobs as the caller's.
        let insideTask = withUnsafeCurrentTask { $0 != nil }
        return ExecutorCapture.ensureRoute() == .enqueueHook || insideTask ? runOnPlainThread(runHere) : runHere()
    }

    func running(_ simulation: Simulation, _ body: () -> RunResult) -> RunResult {
        // Every clock the user's code reads on this thread is the run's virtual clock until the end.
        let clocks = VirtualClocks.bind(simulation)
        defer { VirtualClocks.restore(clocks) }
        RunStallGuard.enter()
        defer { RunStallGuard.leave() }
        return body()
    }

    @inline(__always)
    func tick() { RunStallGuard.tick() }

    func drive(_ simulation: Simulation) -> Verdict? {
        CarrierSet(simulation).drive()
    }

    func releaseWhenQuiet(_ simulation: Simulation) -> Bool {
        guard let dispatch = simulation.dispatchCapture else { return false }
        return dispatch.releaseNotifications()
    }

    func finishing(_ simulation: Simulation, _ verdict: Verdict) -> Verdict {
        let named = simulation.namingSuspendedTasks(verdict)
        simulation.taskCensus?.releaseAll()
        return named
    }

    var holdsTurnOnThisThread: Bool { simrun_turn_binding() != nil }
}
