extension Simulation {
    /// Adds `count` background lanes (`noise.1`, `noise.2`, …) whose jobs touch nothing. Each lane
    /// keeps one job (`noise.tick`) waiting for as long as the scenario has work, up to `ticks` jobs:
    /// while other lanes hold jobs a tick reposts itself at once; while the scenario only waits on
    /// timers, the next tick is set for the scenario's next deadline (so it races the timers due
    /// then); when nothing else is left the lane stops. The bound keeps a strategy that favours a
    /// noise lane (`pct` gives lanes priorities) from starving the scenario forever. Ticks are
    /// scheduled and recorded like any job: they add decisions a strategy, the shrinker and a replay
    /// must see past, which every real app has in abundance.
    public func addNoise(lanes count: Int, ticks: Int) {
        guard count > 0, ticks > 0 else { return }
        let noise = NoiseLanes(simulation: self, lanes: (1...count).map { lane("noise.\($0)") }, ticks: ticks)
        for index in noise.lanes.indices { noise.post(index) }
    }

    /// Whether a lane outside `excluded` holds a job, or a live timer is due or set on one; and the
    /// earliest deadline of such a timer.
    func otherWork(excluding excluded: Set<Int32>) -> (queued: Bool, nextDeadline: Int64?) {
        for index in lanes.indices where !excluded.contains(Int32(index)) && !lanes[index].queue.isEmpty {
            return (true, nil)
        }
        if due.contains(where: { !excluded.contains($0.lane) }) { return (true, nil) }
        var next: Int64?
        for timer in timers.heap.unordered where !excluded.contains(timer.lane) && !cancelledTimers.contains(timer.id) {
            next = Swift.min(next ?? timer.deadline, timer.deadline)
        }
        return (false, next)
    }
}

/// The state of a simulation's noise lanes (held by their waiting jobs).
final class NoiseLanes {
    unowned let simulation: Simulation
    let lanes: [LaneID]
    let indices: Set<Int32>
    let label: Symbol
    /// Ticks each lane may still post.
    var left: [Int]

    init(simulation: Simulation, lanes: [LaneID], ticks: Int) {
        self.simulation = simulation
        self.lanes = lanes
        left = Array(repeating: ticks, count: lanes.count)
        indices = Set(lanes.map(\.index))
        label = simulation.symbol("noise.tick")
    }

    func post(_ index: Int) {
        guard left[index] > 0 else { return }
        left[index] -= 1
        simulation.post(lanes[index], label) { [self] in tick(index) }
    }

    private func tick(_ index: Int) {
        let other = simulation.otherWork(excluding: indices)
        if other.queued {
            post(index)
        } else if let deadline = other.nextDeadline, left[index] > 0 {
            left[index] -= 1
            simulation.schedule(at: deadline, on: lanes[index], "noise.tick") { [self] in tick(index) }
        }
    }
}
