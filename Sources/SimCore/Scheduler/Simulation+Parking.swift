/// Blocking: a lane whose next job may not run yet (it waits for a lock, a condition, another lane's
/// end) is *parked*. Its jobs stay queued but are not offered to the strategy until it is unparked.
/// A run that goes quiet while lanes are parked ends in a `deadlock` verdict naming what each waits
/// for, distinct from `pending` work.
extension Simulation {
    /// Parks `lane`: its jobs are not ready until `unpark`. `reason` says what it waits for.
    public func park(_ lane: LaneID, reason: String) {
        park(lane, describedBy: { reason })
    }

    /// Parks `lane`, describing what it waits for only if the run ends in a deadlock (a model that
    /// re-parks many lanes per step need not build the words each time). Re-parking a parked lane
    /// replaces the description.
    public func park(_ lane: LaneID, describedBy reason: @escaping () -> String) {
        let index = Int(lane.index)
        let wasParked = lanes[index].parkedReason != nil
        lanes[index].parkedReason = reason
        if wasParked { return }
        parkedLaneCount += 1
        // Readiness now depends on more than "has a job": the ready list is rebuilt per step.
        hasRules = true
        readyDirty = true
    }

    /// Lets a parked lane's jobs run again (nothing when it is not parked).
    public func unpark(_ lane: LaneID) {
        let index = Int(lane.index)
        guard lanes[index].parkedReason != nil else { return }
        lanes[index].parkedReason = nil
        parkedLaneCount -= 1
        readyDirty = true
    }

    /// Whether `lane` is parked.
    public func isParked(_ lane: LaneID) -> Bool { lanes[Int(lane.index)].parkedReason != nil }

    /// The deadlock verdict when the run went quiet with lanes parked, else nil.
    package func deadlockVerdict() -> Verdict? {
        guard parkedLaneCount > 0 else { return nil }
        var waits: [String] = []
        for index in lanes.indices {
            guard let reason = lanes[index].parkedReason else { continue }
            waits.append("\(symbols[lanes[index].name]) waits for \(reason())")
        }
        return .deadlock("every lane blocked: " + waits.joined(separator: "; "))
    }
}
