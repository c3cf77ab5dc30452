/// A timer that can still be cancelled.
public struct TimerHandle: Hashable, Sendable {
    /// The timer's number within the run.
    public let id: UInt64
}

extension Simulation {
    /// Runs `body` on `lane` when the virtual clock reaches `deadline` (nanoseconds). Timers due at the
    /// same instant are a choice of the strategy: on different lanes they are ready together, and on
    /// one lane their order is a recorded `timer.order <lane>` decision (`fifo`: the order they were set).
    @discardableResult
    public func schedule(
        at deadline: Int64, on lane: LaneID? = nil, _ label: String, _ body: @escaping () -> Void
    ) -> TimerHandle {
        confinement.check("schedule")
        if let lane { checkLane(lane) }
        let laneID = lane ?? currentLane ?? self.lane("timer")
        let labelSymbol = symbols.intern(label)
        let ordinal = nextOrdinal(lane: laneID.index, label: labelSymbol)
        nextSeq += 1
        let id = nextTimerID
        nextTimerID += 1
        let job = Job(body: body, label: labelSymbol, ordinal: ordinal, seq: nextSeq, cause: eventCount)
        let timer = PendingTimer(deadline: max(deadline, now), id: id, lane: laneID.index, job: job)
        if timer.deadline <= now { due.append(timer) } else { timers.insert(timer) }
        return TimerHandle(id: id)
    }

    /// Runs `body` after `delay` of virtual time.
    @discardableResult
    public func after(_ delay: Duration, on lane: LaneID? = nil, _ label: String, _ body: @escaping () -> Void)
        -> TimerHandle
    {
        schedule(at: now &+ delay.nanosecondsClamped, on: lane, label, body)
    }

    /// Cancels a timer that has not fired; cancelling a fired or cancelled timer does nothing.
    public func cancel(_ timer: TimerHandle) {
        confinement.check("cancel")
        if let slot = due.firstIndex(where: { $0.id == timer.id }) {
            due.remove(at: slot)
        } else {
            cancelledTimers.insert(timer.id)
        }
    }

    /// Timers not yet fired (cancelled ones may still be counted until their deadline passes).
    public var pendingTimerCount: Int { timers.count + due.count - cancelledTimers.count }

    /// Moves the clock to the next deadline and makes every timer due then ready. False when none is left.
    package func advanceToNextDeadline() -> Bool {
        while let first = timers.first, cancelledTimers.contains(first.id) {
            cancelledTimers.remove(first.id)
            _ = timers.popFirst()
        }
        guard let deadline = timers.nextDeadline else { return false }
        if deadline > limits.maxVirtualNanoseconds {
            reportedFailure = .timeLimit(limits.maxVirtualNanoseconds)
            return false
        }
        let from = now
        now = deadline
        let firstReleased = due.count
        while let first = timers.first, first.deadline == deadline {
            let timer = timers.popFirst()!
            if cancelledTimers.remove(timer.id) == nil { due.append(timer) }
        }
        var fields = EventFields()
        fields.append(EventField(keyTo, .int(deadline)))
        fields.append(EventField(symbols.intern("by"), .int(deadline - from)))
        emit(kindAdvance, fields: fields, cause: 0)
        if due.count - firstReleased > 1 { orderSameInstant(from: firstReleased) }
        return true
    }

    /// Timers released together (`due[first...]`, in the order they were set) that share a lane: the
    /// strategy picks the order they run in, one recorded `timer.order <lane>` decision per place
    /// (`permute`, so `fifo` keeps the order they were set), and each group is held to that order.
    ///
    /// Exact virtual time makes deadlines equal that real clocks never quite do: two `asyncAfter`s
    /// for one instant reach the main queue in either order on a device (timer leeway, clock
    /// jitter), and a lane's due timers would otherwise always go in the order they were set under
    /// strategies that prioritise lanes (`pct`). Deadlines are never moved (no jitter): a timer fires
    /// exactly when it asked to, and only the order of ties is a choice.
    func orderSameInstant(from first: Int) {
        // Most instants release timers of different lanes: nothing to order, and nothing allocated.
        if due.count - first <= 16 {
            var shared = false
            for position in first..<due.count where !shared {
                let lane = due[position].lane
                for other in (position + 1)..<due.count where due[other].lane == lane {
                    shared = true
                    break
                }
            }
            if !shared { return }
        }
        var lanesDone: [Int32] = []
        for position in first..<due.count {
            let lane = due[position].lane
            guard !lanesDone.contains(lane) else { continue }
            lanesDone.append(lane)
            let slots = (position..<due.count).filter { due[$0].lane == lane }
            guard slots.count > 1 else { continue }
            nextTimerGroup += 1
            let ordered = permutation(slots.map { due[$0] }, "timer.order " + symbols[lanes[Int(lane)].name])
            for (slot, timer) in zip(slots, ordered) {
                due[slot] = timer
                due[slot].group = nextTimerGroup
            }
        }
    }
}

extension Duration {
    /// Whole nanoseconds, saturating at the bounds of `Int64`.
    public var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled &+ attoseconds / 1_000_000_000
    }
}
