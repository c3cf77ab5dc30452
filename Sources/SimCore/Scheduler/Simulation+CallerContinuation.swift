/// Synchronous calls split into steps, so that other lanes can run in the middle of a call as real
/// threads could, while the caller's own lane stays serial. A kernel facility: every model that
/// splits a call (the boards, a user's own model) uses the same companion lanes.
extension Simulation {
    /// The lane that runs the rest of a synchronous call made on the current lane.
    ///
    /// Real threads can be preempted anywhere; to let other lanes run in the middle of a call we post
    /// its remaining steps as jobs. They go on a companion lane (`<lane>.cont`) that drains before its
    /// lane, so nothing else queued on the caller's lane can run until the call has finished: the
    /// caller's serial queue stays serial, only *other* lanes interleave.
    public func continuationLane() -> LaneID {
        guard let current = currentLane else { return lane("sim.cont") }
        let name = symbols[current.name]
        if name.hasSuffix(".cont") { return current }
        let companion = lane(name + ".cont")
        rule(companion, drainsBefore: current)
        return companion
    }

    /// Runs `body` as the next step of the current call: a job on the caller's continuation lane.
    public func continueCall(_ label: String, _ body: @escaping () -> Void) {
        post(continuationLane(), symbol(label), body)
    }

    /// Runs `body` after every step the current call has already split off, or at once if none.
    ///
    /// Code after a call that may have been split (e.g. `sendOutput` reaching a barrier's overcome)
    /// must not overtake that call's remaining steps.
    public func afterCall(_ label: String, _ body: @escaping () -> Void) {
        let companion = continuationLane()
        if pendingJobs(on: companion) > 0 {
            post(companion, symbol(label), body)
        } else {
            body()
        }
    }
}
