import SimCore

/// One step of the scheduler taken from inside a running job: how a blocking wait (a semaphore, a
/// group, `DispatchQueue.sync`) lets the rest of the run go on while its job stays on the stack. This
/// is the seam carrier threads replace: a carrier that waits parks itself instead.
extension Simulation {
    /// What one nested step did.
    enum NestedStep {
        /// A job ran (or the clock moved to the next timer).
        case ran
        /// Nothing can run before `deadline`.
        case idle
        /// The run has failed or hit its step limit: the waits unwind and the run loop reports it.
        case stopped
    }

    /// Picks and runs one job as the run loop does (a recorded decision), with the running job's
    /// state kept for it; moves the clock to the next timer when nothing is ready and one is due by
    /// `deadline` (virtual nanoseconds).
    func nestedStep(until deadline: Int64) -> NestedStep {
        if reportedFailure != nil { return .stopped }
        var count = collectCandidates()
        if count == 0 {
            if let dispatch = dispatchCapture, dispatch.releaseNotifications() { return .ran }
            guard let next = nextTimerDeadline, next <= deadline else { return .idle }
            guard advanceToNextDeadline() else { return reportedFailure != nil ? .stopped : .idle }
            count = collectCandidates()
            if count == 0 { return .ran }
        }
        if steps >= limits.maxSteps { return .stopped }
        let (lane, event, label) = (currentLaneIndex, currentJobEvent, currentJobLabel)
        let index = pickCandidate(count)
        execute(index)
        steps += 1
        (currentLaneIndex, currentJobEvent, currentJobLabel) = (lane, event, label)
        if let failure = checkStep(), reportedFailure == nil { reportedFailure = failure }
        return reportedFailure == nil ? .ran : .stopped
    }

    /// Moves the clock forward to `deadline` with no timer due (a wait that timed out), recorded as a
    /// `clock.advance` like any other.
    func advanceClock(to deadline: Int64) {
        guard deadline > now else { return }
        if deadline > limits.maxVirtualNanoseconds {
            if reportedFailure == nil { reportedFailure = .timeLimit(limits.maxVirtualNanoseconds) }
            return
        }
        let from = now
        now = deadline
        var fields = EventFields()
        fields.append(EventField(keyTo, .int(deadline)))
        fields.append(EventField(symbols.intern("by"), .int(deadline - from)))
        let lane = currentLaneIndex
        currentLaneIndex = -1
        emit(kindAdvance, fields: fields, cause: 0)
        currentLaneIndex = lane
    }
}
