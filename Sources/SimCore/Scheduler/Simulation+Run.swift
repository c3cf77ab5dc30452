extension Simulation {
    /// Runs until quiet, a failure or a limit, then checks the end-of-run oracles.
    public func run() -> RunResult {
        precondition(!finished, "a simulation runs once")
        confinement.check("run")
        guard let host else { return runLoop() }
        // Every clock the user's code reads on this thread is the run's virtual clock until the end.
        return host.running(self) { runLoop() }
    }

    /// The run loop, with this thread bound to the run by the host (if any).
    private func runLoop() -> RunResult {
        var verdict: Verdict? = reportedFailure
        if verdict == nil, carrierMode != .off {
            // Jobs on carrier threads that take turns (SimCapture's Carriers/): the same picks, made by
            // whichever carrier holds the turn.
            if let host {
                verdict = host.drive(self)
            } else {
                verdict = .fail(
                    oracle: "carriers",
                    message: "carriers (\(carrierMode)) need the capture module: link SimCapture into this process")
            }
        }
        while verdict == nil && carrierMode == .off {
            let count = collectCandidates()
            if count == 0 {
                // A group's notification waits for the group to empty, which a job may have done.
                if let host, host.releaseWhenQuiet(self) { continue }
                if advanceToNextDeadline() { continue }
                if !quietWaiters.isEmpty {
                    resumeQuietWaiter()
                    continue
                }
                verdict = reportedFailure ?? deadlockVerdict()
                break
            }
            if steps >= limits.maxSteps {
                verdict = .stepLimit(limits.maxSteps)
                break
            }
            let index = pickCandidate(count)
            execute(index)
            steps += 1
            if steps & 63 == 0, let host { host.tick() }
            let failure = reportedFailure ?? (oracles.always.isEmpty ? nil : checkAlways())
            // Goals count on the failing step too: a failing run that reached a goal reached it.
            if oracles.goalsLeft > 0 { checkGoals() }
            if let failure {
                verdict = failure
                break
            }
        }
        let reported = verdict ?? checkAtEnd() ?? .pass
        let final = host.map { $0.finishing(self, reported) } ?? reported
        if final != .pass {
            currentLaneIndex = -1
            var fields = EventFields()
            fields.append(EventField(keyMessage, .symbol(symbols.intern(final.message))))
            emit(kindOracleFail, subject: symbols.intern(final.oracle), fields: fields, cause: 0)
        }
        finished = true
        strategy.finish(steps: steps)
        return RunResult(
            verdict: final, steps: steps, eventCount: eventCount, digest: digest,
            tape: Tape(decisions: decisions, symbols: symbols.strings), endTime: now,
            reachedGoals: reachedGoals, goals: goalNames, strategyNotes: strategy.notes, uncontrolled: uncontrolled,
            scheduleDigest: scheduleDigest.value, lockOrder: lockOrder)
    }

    // MARK: The ready list
    //
    // `ready[0..<readyLaneCount]` holds the head job of every non-empty lane, in lane order. Without
    // lane rules it is kept up to date as jobs are posted and taken (a post onto an empty lane
    // inserts, taking a head replaces or removes it): no lane is scanned per step. With rules, a post
    // can block or unblock another lane, so the lane part is rebuilt each step instead. Due timers
    // follow the lanes; they are relisted each step (usually there are none).

    /// Lists the candidates for this step; returns how many there are.
    @inline(__always)
    package func collectCandidates() -> Int {
        if readyDirty { rebuildLaneCandidates() }
        if due.isEmpty { return readyLaneCount }
        return appendTimerCandidates()
    }

    func rebuildLaneCandidates() {
        var found = 0
        for index in lanes.indices {
            guard !lanes[index].queue.isEmpty,
                (lanes[index].blockers.isEmpty && lanes[index].parkedReason == nil) || !isBlocked(index)
            else { continue }
            let head = lanes[index].queue.firstMeta
            reserveReady(found + 1)
            ready[found] = Candidate(
                lane: lanes[index].name, label: head.label, ordinal: head.ordinal, seq: head.seq, isTimer: false,
                laneIndex: Int32(index), timerSlot: -1)
            found += 1
        }
        readyLaneCount = found
        readyDirty = hasRules
    }

    private func appendTimerCandidates() -> Int {
        var found = readyLaneCount
        for slot in due.indices {
            let timer = due[slot]
            guard !hasRules || !isBlocked(Int(timer.lane)) else { continue }
            // A timer of a same-instant group waits for the ones the strategy put before it.
            if timer.group != 0 && due[..<slot].contains(where: { $0.group == timer.group }) { continue }
            reserveReady(found + 1)
            ready[found] = Candidate(
                lane: lanes[Int(timer.lane)].name, label: timer.job.label, ordinal: timer.job.ordinal,
                seq: timer.job.seq, isTimer: true, laneIndex: timer.lane, timerSlot: Int32(slot))
            found += 1
        }
        return found
    }

    /// A job was posted on `lane`: keep the ready list current.
    @inline(__always)
    func laneGainedJob(_ lane: Int32) {
        if hasRules {
            readyDirty = true
            return
        }
        guard lanes[Int(lane)].queue.count == 1, !readyDirty else { return }
        // The lane just became ready: insert its head in lane order.
        reserveReady(readyLaneCount + 1)
        var position = readyLaneCount
        while position > 0 && ready[position - 1].laneIndex > lane {
            ready[position] = ready[position - 1]
            position -= 1
        }
        // In lane order, once: the lane before is lower, and the lane was not listed (a lane gains
        // its first job only when it is not). Checked where the list changes, not per step.
        assert(
            position == 0 || ready[position - 1].laneIndex < lane,
            "ready list: lane \(lane) listed twice or out of lane order")
        let head = lanes[Int(lane)].queue.firstMeta
        ready[position] = Candidate(
            lane: lanes[Int(lane)].name, label: head.label, ordinal: head.ordinal, seq: head.seq, isTimer: false,
            laneIndex: lane, timerSlot: -1)
        readyLaneCount += 1
        assert(readyLaneCount <= readyCapacity && readyLaneCount <= lanes.count, "ready list: \(readyLaneCount) lanes listed")
    }

    /// Grows the ready buffer to hold at least `needed` candidates.
    @inline(__always)
    package func reserveReady(_ needed: Int) {
        if needed > readyCapacity { growReady(needed) }
    }

    func growReady(_ needed: Int) {
        let capacity = Swift.max(needed, readyCapacity * 2, 8)
        let grown = UnsafeMutablePointer<Candidate>.allocate(capacity: capacity)
        grown.initialize(from: ready, count: readyCapacity)
        ready.deallocate()
        ready = grown
        readyCapacity = capacity
    }

    private func isBlocked(_ laneIndex: Int) -> Bool {
        if lanes[laneIndex].parkedReason != nil { return true }
        for blocker in lanes[laneIndex].blockers where !lanes[Int(blocker)].queue.isEmpty { return true }
        return false
    }

    // MARK: Picking and running

    package func pickCandidate(_ count: Int) -> Int {
        var fifo = 0
        let chosen: Int
        if count == 1 {
            chosen = 0
        } else {
            var fifoSeq = ready[0].seq
            for index in 1..<count where ready[index].seq < fifoSeq {
                fifo = index
                fifoSeq = ready[index].seq
            }
            switch fastPick {
            case .random:
                chosen = fastRandom.unsafelyUnwrapped.pickIndex(count)
            case .fifo:
                chosen = fifo
            case .general:
                var continuing: Int?
                for index in 0..<count where !ready[index].isTimer && ready[index].laneIndex == previousLaneIndex {
                    continuing = index
                }
                let view = ReadySet(
                    buffer: UnsafeBufferPointer(start: ready, count: count), fifoIndex: fifo,
                    continuingIndex: continuing, step: steps, symbols: symbols)
                chosen = strategy.pick(view)
                precondition(chosen >= 0 && chosen < count, "strategy picked \(chosen) of \(count)")
            }
            let taken = ready[chosen]
            recordDecision(
                Decision(
                    kind: .pick, chosen: UInt32(chosen), count: UInt32(count), fallback: UInt32(fifo),
                    lane: taken.lane, label: taken.label, ordinal: taken.ordinal, afterEvent: eventCount))
        }
        return chosen
    }

    /// Takes the lane job or due timer at `index` of the ready list and records its pick, without
    /// running its body: `execute` runs it here, a carrier runs it on its own thread.
    @inline(__always)
    package func takeJob(_ index: Int) -> TakenJob {
        let candidate = ready[index]
        let body: () -> Void
        let label: Symbol
        let ordinal: UInt32
        let cause: EventID
        if candidate.isTimer {
            let job = due.remove(at: Int(candidate.timerSlot)).job
            (body, label, ordinal, cause) = (job.body, job.label, job.ordinal, job.cause)
        } else {
            let lane = Int(candidate.laneIndex)
            let meta = lanes[lane].queue.firstMeta
            body = lanes[lane].queue.takeFirstBody()
            (label, ordinal, cause) = (meta.label, meta.ordinal, meta.cause)
            laneLostHead(at: index, lane: lane)
        }
        currentLaneIndex = candidate.laneIndex
        currentJobLabel = label
        currentJobEvent = emitPick(
            lane: candidate.lane, label: label, ordinal: ordinal, isTimer: candidate.isTimer, cause: cause)
        return TakenJob(body: body, lane: candidate.laneIndex, seq: candidate.seq)
    }

    package func execute(_ index: Int) {
        let taken = takeJob(index)
        taken.body()
        previousLaneIndex = taken.lane
        currentLaneIndex = -1
        currentJobEvent = 0
    }

    /// The head of the lane listed at `index` was taken: list its next job, or unlist the lane.
    @inline(__always)
    func laneLostHead(at index: Int, lane: Int) {
        if hasRules || readyDirty {
            readyDirty = true
            return
        }
        // The entry taken is that lane's, within the listed part.
        assert(
            index >= 0 && index < readyLaneCount && Int(ready[index].laneIndex) == lane,
            "ready list: entry \(index) of \(readyLaneCount) is not lane \(lane)")
        if !lanes[lane].queue.isEmpty {
            let head = lanes[lane].queue.firstMeta
            ready[index].label = head.label
            ready[index].ordinal = head.ordinal
            ready[index].seq = head.seq
            return
        }
        readyLaneCount -= 1
        var position = index
        while position < readyLaneCount {
            ready[position] = ready[position + 1]
            position += 1
        }
    }

    /// Records a job's `sched.pick` event. The digest is mixed from the parts directly (the same
    /// words `Digest.mix(_:symbolHash:)` mixes for the event), and the event is only built for a sink
    /// that keeps it.
    @inline(__always)
    package func emitPick(lane: Symbol, label: Symbol, ordinal: UInt32, isTimer: Bool, cause: EventID) -> EventID {
        eventCount += 1
        let seq = eventCount
        let table = symbols
        digest.mix(seq)
        digest.mix(UInt64(bitPattern: now))
        digest.mix(table.contentHash(lane))
        digest.mix(pickKindHash)
        digest.mix(table.contentHash(label))
        digest.mix(cause)
        digest.mix(ordinalKeyHash)
        digest.mix(1)
        digest.mix(UInt64(ordinal))
        if isTimer {
            digest.mix(timerKeyHash)
            digest.mix(3)
            digest.mix(1)
        }
        if !sinkDiscards {
            var fields = EventFields()
            fields.append(EventField(keyOrdinal, .int(Int64(ordinal))))
            if isTimer { fields.append(EventField(keyTimer, .bool(true))) }
            sink.record(
                Event(seq: seq, time: now, lane: lane, kind: kindPick, subject: label, fields: fields, cause: cause))
        }
        return seq
    }
}

/// The built-in strategies the scheduler calls directly, without building a `ReadySet` or going
/// through the protocol (a pick per step).
enum FastPick {
    case random
    case fifo
    case general
}

/// A picked job, handed to whoever runs it (this thread, or a carrier of the capture module).
package struct TakenJob {
    package let body: () -> Void
    package let lane: Int32
    package let seq: UInt64
}
