import SimCore
import SimTrace

/// A trace's schedule as identities, read from the trace alone: how a replay on another build
/// follows a recording it cannot re-run (the code that recorded it is not in this program).
///
/// On its own build a tape is read back by re-running it (``TraceReplayer/identitySchedule()``):
/// every ready set is seen. From the file, each pick names its job (the decision's lane, label and
/// ordinal), and each job that ran has a `sched.pick` event saying what posted it (`cause`), when
/// it ran and whether a timer released it. The ready set of a pick is rebuilt from those: the head
/// of each lane among the jobs not yet run, posted by an event at or before the decision, a timer's
/// job only when it ran at the decision's virtual time. A departing pick then went ahead of the
/// other jobs of that set. Jobs that never ran (cut off by the end of the run) are not known, so a
/// departure whose overtaken jobs cannot be rebuilt is left without them: the replay cannot follow
/// it and says so (inconclusive), never guesses.
package enum TraceSchedule {
    /// One job that ran, from its `sched.pick` event.
    struct Ran {
        var key: JobKey
        var seq: UInt64
        var cause: UInt64
        var time: Int64
        var isTimer: Bool
    }

    /// Reads `path` whole; a `SimEngineError` (damaged trace) when it cannot be read.
    package static func read(path: String) throws(SimEngineError) -> Schedule {
        let reader: TraceReader
        do {
            reader = try TraceReader(path: path)
        } catch {
            throw TraceInput.failure(error)
        }
        var ran: [Ran] = []
        var decisions: [Decision] = []
        var decisionTexts: [(lane: String, label: String)] = []
        do {
            while let record = try reader.next() {
                switch record {
                case .event(let event):
                    guard reader.text(event.kind) == "sched.pick" else { continue }
                    var ordinal: UInt32 = 0
                    var isTimer = false
                    for field in event.fields {
                        switch (reader.text(field.key), field.value) {
                        case ("ordinal", .int(let value)): ordinal = UInt32(clamping: value)
                        case ("timer", .bool(let value)): isTimer = value
                        default: break
                        }
                    }
                    ran.append(
                        Ran(
                            key: JobKey(
                                lane: reader.text(event.lane), label: reader.text(event.subject), ordinal: ordinal),
                            seq: event.seq, cause: event.cause, time: event.time, isTimer: isTimer))
                case .decision(let decision):
                    decisions.append(decision)
                    decisionTexts.append((reader.text(decision.lane), reader.text(decision.label)))
                default: continue
                }
            }
        } catch {
            throw TraceInput.failure(error)
        }
        return schedule(ran: ran, decisions: decisions, texts: decisionTexts)
    }

    static func schedule(ran: [Ran], decisions: [Decision], texts: [(lane: String, label: String)]) -> Schedule {
        var entries: [Schedule.Entry] = []
        var siteCounts: [String: UInt32] = [:]
        var next = 0  // the first job in `ran` not yet run at the decision being read
        for (index, decision) in decisions.enumerated() {
            let number = index + 1
            guard decision.kind == .pick else {
                let site = texts[index].label
                let ordinal = (siteCounts[site] ?? 0) + 1
                siteCounts[site] = ordinal
                entries.append(
                    Schedule.Entry(
                        number: number, kind: decision.kind, job: JobKey(lane: "", label: site, ordinal: ordinal),
                        chosen: decision.chosen, count: decision.count, isDeviation: decision.chosen != 0))
                continue
            }
            let taken = JobKey(lane: texts[index].lane, label: texts[index].label, ordinal: decision.ordinal)
            while next < ran.count && ran[next].seq <= decision.afterEvent { next += 1 }
            let deviates = decision.chosen != decision.fallback
            var overtaken: [JobKey] = []
            var fifo: JobKey?
            if deviates, next < ran.count {
                let now = ran[next].time
                var heads: [String: Ran] = [:]
                var order: [String] = []
                for job in ran[next...] where heads[job.key.lane] == nil {
                    heads[job.key.lane] = job
                    order.append(job.key.lane)
                }
                let ready = order.compactMap { heads[$0] }.filter { job in
                    job.key != taken && job.cause <= decision.afterEvent && (!job.isTimer || job.time == now)
                }
                overtaken = ready.sorted { ($0.cause, $0.seq) < ($1.cause, $1.seq) }.map(\.key)
                fifo = overtaken.first
            }
            entries.append(
                Schedule.Entry(
                    number: number, kind: .pick, job: taken, fifo: deviates ? fifo : taken, overtaken: overtaken,
                    chosen: decision.chosen, count: decision.count, isDeviation: deviates))
        }
        return Schedule(entries: entries, jobs: Set(ran.map(\.key)))
    }
}
