/// What the capture module (SimCapture) reads and does inside a run without reaching the kernel's
/// tables: a lane's name, the next timer, the checks made after a step.
extension Simulation {
    /// The name of the lane at `index` of the lane table.
    @inline(__always)
    package func laneName(at index: Int32) -> Symbol { lanes[Int(index)].name }

    /// The lane at `index` of the lane table.
    @inline(__always)
    package func laneID(at index: Int32) -> LaneID { LaneID(index: index, name: lanes[Int(index)].name) }

    /// How many lanes the run has made so far.
    package var laneCount: Int { lanes.count }

    /// When the next timer is due (virtual nanoseconds), if one is set.
    package var nextTimerDeadline: Int64? { timers.nextDeadline }

    /// The checks `run()` makes after each step: the failure reported or an `always` oracle broken
    /// (nil when none), with the goals reached counted.
    package func checkStep() -> Verdict? {
        let failure = reportedFailure ?? (oracles.always.isEmpty ? nil : checkAlways())
        // Goals count on the failing step too: a failing run that reached a goal reached it.
        if oracles.goalsLeft > 0 { checkGoals() }
        return failure
    }
}
