import SimCore

/// The kernel's side of running on carriers: the same candidates, picks and checks as `run()`'s
/// one-thread loop, made by whichever carrier holds the turn, plus paused carriers as candidates.
extension Simulation {
    /// What the carrier holding the turn does next.
    enum CarrierNext {
        /// Run (or resume) candidate `index` of the ready list; the pick is recorded.
        case run(Int)
        /// The run is over: a verdict, or nil when it went quiet (the end-of-run oracles decide).
        case end(Verdict?)
    }

    /// Checks the step that just ran (as `run()` does after each job), then picks the next candidate.
    /// `canStartJobs` false (at the carrier bound) leaves only paused carriers as candidates.
    func carrierDecide(canStartJobs: Bool) -> CarrierNext {
        if carrierStepTaken {
            carrierStepTaken = false
            if let failure = checkStep() { return .end(failure) }
        } else if let failure = reportedFailure {
            return .end(failure)
        }
        while true {
            var count = collectCandidates()
            if let carriers = carrierSet {
                if !canStartJobs {
                    count = 0
                    readyDirty = true
                }
                count = carriers.appendPausedCandidates(from: count)
            }
            if count == 0 {
                if canStartJobs && advanceToNextDeadline() { continue }
                if canStartJobs && !quietWaiters.isEmpty {
                    resumeQuietWaiter()
                    continue
                }
                return .end(reportedFailure ?? deadlockVerdict())
            }
            if steps >= limits.maxSteps { return .end(.stepLimit(limits.maxSteps)) }
            let index = pickCandidate(count)
            steps += 1
            carrierStepTaken = true
            return .run(index)
        }
    }

    /// Parks a lane by index while a carrier of it is paused (its other jobs wait: lanes are serial).
    func parkLane(_ lane: Int32, reason: @escaping () -> String) {
        park(laneID(at: lane), describedBy: reason)
    }

    /// Lets the lane of a resumed carrier run again.
    func unparkLane(_ lane: Int32) {
        unpark(laneID(at: lane))
    }
}
