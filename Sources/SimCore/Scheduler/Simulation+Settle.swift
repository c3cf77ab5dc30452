extension Simulation {
    /// Suspends the calling task of this run until nothing else in the run can make progress: every
    /// other ready job has run and every pending sleep or timer has fired. Then the test's body checks
    /// the state its `Task {}`s left, as a user waits for a view model to finish loading:
    ///
    /// ```swift
    /// model.select(2)
    /// await sim.settle()
    /// sim.check("shows-the-selection", model.shown == model.selected, "shows \(model.shown)")
    /// ```
    ///
    /// Call it only from a task of this run. Work that never ends (a loop that sleeps forever) keeps
    /// the run busy until its limits end it with a limit verdict; several waiting tasks are resumed one
    /// at a time, in the order they called.
    public func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            quietWaiters.append { continuation.resume() }
        }
    }

    /// Fails the run with `oracle` unless `holds`: a check made from inside the run (after `settle()`,
    /// say), where the code's state is at hand. `message` says what was seen.
    public func check(_ oracle: String, _ holds: Bool, _ message: @autoclosure () -> String = "the check failed") {
        if !holds { fail(oracle, message()) }
    }

    /// The run went quiet: resume the first task waiting in `settle()` (its job joins the run).
    package func resumeQuietWaiter() {
        let waiter = quietWaiters.removeFirst()
        emit("task.settled", "quiet")
        waiter()
    }
}
