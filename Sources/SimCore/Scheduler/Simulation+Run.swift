extension Simulation {
    /// Runs until quiet, a failure or a limit, then checks the end-of-run oracles.
    public func run() -> RunResult {
        precondition(!finished, "a simulation runs once")
        var verdict: Verdict? = reportedFailure
        while verdict == nil {
            collectCandidates()
            if candidates.isEmpty {
                if advanceToNextDeadline() { continue }
                verdict = reportedFailure
                break
            }
            if steps >= limits.maxSteps {
                verdict = .stepLimit(limits.maxSteps)
                break
            }
            let index = pickCandidate()
            execute(candidates[index])
            steps += 1
            if let failure = reportedFailure ?? (oracles.always.isEmpty ? nil : checkAlways()) {
                verdict = failure
                break
            }
            checkGoals()
        }
        let final = verdict ?? checkAtEnd() ?? .pass
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
            reachedGoals: reachedGoals, goals: goalNames, strategyNotes: strategy.notes)
    }

    func collectCandidates() {
        // Overwrites the list in place: no reallocation, no generic removeAll per step.
        var found = 0
        for index in lanes.indices {
            guard !lanes[index].queue.isEmpty, lanes[index].blockers.isEmpty || !isBlocked(index) else { continue }
            let head = lanes[index].queue.firstMeta
            put(
                Candidate(
                    lane: lanes[index].name, label: head.label, ordinal: head.ordinal, seq: head.seq,
                    isTimer: false, laneIndex: Int32(index), timerSlot: -1), at: found)
            found += 1
        }
        for slot in due.indices {
            let timer = due[slot]
            guard !isBlocked(Int(timer.lane)) else { continue }
            put(
                Candidate(
                    lane: lanes[Int(timer.lane)].name, label: timer.job.label, ordinal: timer.job.ordinal,
                    seq: timer.job.seq, isTimer: true, laneIndex: timer.lane, timerSlot: Int32(slot)), at: found)
            found += 1
        }
        if candidates.count > found { candidates.removeLast(candidates.count - found) }
    }

    @inline(__always)
    private func put(_ candidate: Candidate, at position: Int) {
        if position < candidates.count {
            candidates[position] = candidate
        } else {
            candidates.append(candidate)
        }
    }

    private func isBlocked(_ laneIndex: Int) -> Bool {
        for blocker in lanes[laneIndex].blockers where !lanes[Int(blocker)].queue.isEmpty { return true }
        return false
    }

    private func pickCandidate() -> Int {
        if candidates.count == 1 { return 0 }
        var fifo = 0
        var continuing: Int?
        for index in candidates.indices {
            if candidates[index].seq < candidates[fifo].seq { fifo = index }
            if !candidates[index].isTimer && candidates[index].laneIndex == previousLaneIndex { continuing = index }
        }
        let ready = ReadySet(
            candidates: candidates, fifoIndex: fifo, continuingIndex: continuing, step: steps, symbols: symbols)
        let chosen = strategy.pick(ready)
        precondition(chosen >= 0 && chosen < candidates.count, "strategy picked \(chosen) of \(candidates.count)")
        let taken = candidates[chosen]
        recordDecision(
            Decision(
                kind: .pick, chosen: UInt32(chosen), count: UInt32(candidates.count), fallback: UInt32(fifo),
                lane: taken.lane, label: taken.label, ordinal: taken.ordinal, afterEvent: eventCount))
        return chosen
    }

    private func execute(_ candidate: Candidate) {
        let job: Job
        if candidate.isTimer {
            job = due.remove(at: Int(candidate.timerSlot)).job
        } else {
            job = lanes[Int(candidate.laneIndex)].queue.removeFirst()
        }
        currentLaneIndex = candidate.laneIndex
        var fields = EventFields()
        fields.append(EventField(keyOrdinal, .int(Int64(job.ordinal))))
        if candidate.isTimer { fields.append(EventField(keyTimer, .bool(true))) }
        currentJobEvent = emit(kindPick, subject: job.label, fields: fields, cause: job.cause)
        job.body()
        previousLaneIndex = candidate.laneIndex
        currentLaneIndex = -1
        currentJobEvent = 0
    }
}
