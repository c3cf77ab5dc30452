import SimCore
import SimTrace

/// A trace's schedule as identities, read from the trace itself: how a replay on another build
/// follows a recording it cannot re-run exactly (the code that recorded it is not in this program).
///
/// On its own build a tape is read back by re-running it (``TraceReplayer/identitySchedule()``):
/// every ready set is seen. From the file, each pick names its job (the decision's lane, label and
/// ordinal) and how many jobs were ready (`count`), and each job that ran has a `sched.pick` event
/// saying what posted it (`cause`), when it ran and whether a timer released it. The ready set of a
/// pick is rebuilt from those:
/// - the head of each lane among the jobs not yet run, posted by an event at or before the
///   decision, a timer's job only when it ran at the decision's virtual time;
/// - every job known to be ready at an earlier pick that has not run since (a ready job stays
///   ready until it runs): jobs that never ran at all, as the jobs a crash's last picks went ahead
///   of, are known this way once one ready set names them;
/// - where this build's re-run of the recording (`observed`) made the same picks up to the
///   decision (``agreedPrefix(of:tape:)``), the ready set it saw there.
///
/// A departing pick went ahead of the other jobs of its set. When fewer jobs are known than the
/// decision counted, the ones missing may include the one fifo would have run: the departure is
/// left without overtaken jobs (the replay cannot follow it and says so, `unnamed`), never guessed.
package enum TraceSchedule {
    /// One job that ran, from its `sched.pick` event.
    struct Ran {
        var key: JobKey
        var seq: UInt64
        var cause: UInt64
        var time: Int64
        var isTimer: Bool
    }

    /// Reads `path` whole; a `SimEngineError` (damaged trace) when it cannot be read. `observed`:
    /// this build's re-run of the same recording's tape, read back with every departure's ready
    /// set (nil when there is none).
    package static func read(path: String, observed: Schedule? = nil) throws(SimEngineError) -> Schedule {
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
        let agreed = observed.map { agreedPrefix(of: $0, decisions: decisions, texts: decisionTexts) } ?? []
        return schedule(ran: ran, decisions: decisions, texts: decisionTexts, observed: agreed)
    }

    /// The entries of `observed` (a re-run of the recording) up to its first decision that differs
    /// from the recorded one: another kind or number of options, a pick of another job or of the
    /// same job as a departure where the recording's was none (or the reverse), another data value.
    static func agreedPrefix(of observed: Schedule, decisions: [Decision], texts: [(lane: String, label: String)])
        -> [Schedule.Entry]
    {
        var agreed: [Schedule.Entry] = []
        for (index, decision) in decisions.enumerated() {
            guard index < observed.entries.count else { break }
            let seen = observed.entries[index]
            guard seen.kind == decision.kind, seen.count == decision.count else { break }
            if decision.kind == .pick {
                let taken = JobKey(lane: texts[index].lane, label: texts[index].label, ordinal: decision.ordinal)
                guard seen.job == taken, seen.isDeviation == decision.isDeviation else { break }
            } else if seen.chosen != decision.chosen {
                break
            }
            agreed.append(seen)
        }
        return agreed
    }

    static func schedule(
        ran: [Ran], decisions: [Decision], texts: [(lane: String, label: String)], observed: [Schedule.Entry] = []
    ) -> Schedule {
        var entries: [Schedule.Entry] = []
        var siteCounts: [String: UInt32] = [:]
        var known = Set(ran.map(\.key))
        // When each job ran (its `sched.pick` seq); jobs that never ran are absent.
        var ranSeq: [JobKey: UInt64] = [:]
        for job in ran where ranSeq[job.key] == nil { ranSeq[job.key] = job.seq }
        // Jobs known ready at an earlier pick and not run since, in the order they became known.
        var carried: [JobKey] = []
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
            let notRunYet = { (job: JobKey) in ranSeq[job].map { $0 > decision.afterEvent } ?? true }
            carried = carried.filter { notRunYet($0) && $0 != taken }
            // The lane heads among the jobs still to run, posted by then (timers due now).
            var rebuilt: [JobKey] = []
            if next < ran.count {
                let now = ran[next].time
                var heads: [String: Ran] = [:]
                var order: [String] = []
                for job in ran[next...] where heads[job.key.lane] == nil {
                    heads[job.key.lane] = job
                    order.append(job.key.lane)
                }
                rebuilt =
                    order.compactMap { heads[$0] }.filter { job in
                        job.key != taken && job.cause <= decision.afterEvent && (!job.isTimer || job.time == now)
                    }
                    .sorted { ($0.cause, $0.seq) < ($1.cause, $1.seq) }.map(\.key)
            }
            var ready = carried + rebuilt.filter { !carried.contains($0) }
            var overtakenSeen: [JobKey]?
            if index < observed.count {
                // This build made the same picks up to here: its ready set is the recorded one, when
                // it holds every job the file names.
                let seen = observed[index]
                let seenReady = seen.isDeviation ? seen.ready.filter { $0 != taken } : []
                if seen.isDeviation, Set(ready).isSubset(of: seenReady) {
                    ready = seenReady
                    overtakenSeen = seen.overtaken
                    known.formUnion(seenReady)
                }
            }
            let deviates = decision.chosen != decision.fallback
            var overtaken: [JobKey] = []
            var fifo: JobKey?
            // Fewer jobs known than the decision counted: the one fifo would have run may be among
            // the unknown ones. Left unnamed, not guessed from the rest.
            if deviates, ready.count + 1 >= Int(decision.count) {
                overtaken = overtakenSeen ?? ready
                fifo = overtaken.first
            }
            carried = ready.filter(notRunYet)
            entries.append(
                Schedule.Entry(
                    number: number, kind: .pick, job: taken, fifo: deviates ? fifo : taken, overtaken: overtaken,
                    chosen: decision.chosen, count: decision.count, isDeviation: deviates))
        }
        return Schedule(entries: entries, jobs: known)
    }
}
