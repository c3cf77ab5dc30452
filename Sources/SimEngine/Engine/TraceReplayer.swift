import SimCore
import SimTrace

/// Re-runs a recorded trace by following its decisions (by job identity) and compares every event
/// with the recording, streaming both from one pass over the file.
public struct TraceReplayer {
    /// What one replay established (the raw facts `TraceReplay` decides from).
    public struct Outcome {
        /// The replayed run.
        public var result: RunResult
        /// The first difference, rendered with context from both sides; nil when identical.
        public var divergence: [String]?
        /// Where the tape could not be followed.
        public var notes: [String]
        /// Recorded events compared with the replay.
        public var eventsCompared: UInt64
        /// The recording was cut short and matched up to its end (the run went on past it).
        public var reachedTruncation = false
        /// The recording's footer (nil when it was cut short), once the replay has read it all.
        public var recordedFooter: TraceFooter?
        /// The recording has no footer: it was cut short.
        public var recordingIsTruncated = false
        /// Where the file broke off in unreadable bytes, when the replay was asked to report it
        /// rather than throw it (`throwingOnDamage: false`): events up to there were compared.
        public var damage: TraceError?
        /// The first difference's event number (with `divergence`).
        public var divergedAt: UInt64?
        /// The schedule had to be read in a second pass: one side ran more than the look-ahead bound
        /// ahead of the other (a long stretch without decisions, or a departing run).
        public var readTwice = false
        /// How much of the recorded schedule the replay followed.
        public var tally = ScheduleTally()
        /// Departures from `fifo` of the recording that the replay could not follow (a replay on
        /// another variant only): while any is left, the verdict is inconclusive.
        public var unfollowed: [ScheduleStrategy.Unfollowed] = []
        /// Why the recorded schedule could not be read back as identities (its tape does not
        /// re-run on the recorded variant); nil when it could. Inconclusive too.
        public var scheduleProblem: String?

        /// Every departure from `fifo` of the recording was followed, from a schedule read back
        /// exactly: the verdict tested the recorded races.
        public var isConclusive: Bool { unfollowed.isEmpty && scheduleProblem == nil && tally.isConclusive }
    }

    /// The trace replayed.
    public let input: TraceInput
    /// What it is replayed on.
    public let plan: RunPlan

    /// A replayer of `input` on `plan`.
    public init(input: TraceInput, plan: RunPlan) {
        self.input = input
        self.plan = plan
    }

    /// Replays on the recorded variant, comparing events (one pass over the file; `input`'s tape is
    /// not needed for it).
    public func replayComparing() throws(SimEngineError) -> Outcome {
        let path = input.path
        let reader: TraceReader
        do {
            reader = try TraceReader(path: path)
        } catch {
            throw TraceInput.failure(error)
        }
        return try Self.replayComparing(reading: reader, path: path, plan: plan)
    }

    /// Replays the trace `reader` has opened (its header read, nothing else) on `plan`, following its
    /// decisions and comparing its events as both are read: one pass over the file. The decisions and
    /// events passed over by one side are held for the other up to `maxBuffered` of them; past that
    /// the schedule is read from a second reader of `path` (the outcome says `readTwice`). The rest
    /// of the file is read after the run, so damage anywhere in it is reported as a reader of the
    /// whole file would (a thrown `SimEngineError`, exit 65).
    public static func replayComparing(
        reading reader: TraceReader, path: String, plan: RunPlan, maxBuffered: Int = 4096,
        throwingOnDamage: Bool = true
    ) throws(SimEngineError) -> Outcome {
        let stream = TraceStream(reader: reader, maxBuffered: max(1, maxBuffered)) { () throws(TraceError) in
            try TraceReader(path: path)
        }
        let sink = ComparingSink(stream: stream)
        let strategy = ReplayStrategy(source: stream)
        let result = plan.scenario.run(variant: plan.variant, seed: reader.header.seed, strategy: strategy, sink: sink)
        sink.finish()
        stream.drain()
        if let error = stream.readError, throwingOnDamage { throw TraceInput.failure(error) }
        var lines: [String]?
        var divergedAt: UInt64?
        if let divergence = sink.divergence {
            var text = ["first difference at event #\(divergence.atEvent): \(divergence.reason)", "  recorded:"]
            text += divergence.recorded.map { "    " + $0 }
            text.append("  replayed:")
            text += divergence.live.map { "    " + $0 }
            lines = text
            divergedAt = divergence.atEvent
        } else if stream.readError == nil, let footer = reader.footer, footer.digest != result.digest {
            lines = ["digest differs: recorded \(footer.digest), replayed \(result.digest)"]
            divergedAt = sink.compared
        }
        var outcome = Outcome(result: result, divergence: lines, notes: strategy.notes, eventsCompared: sink.compared)
        outcome.tally = strategy.tally
        outcome.reachedTruncation = sink.reachedTruncation && lines == nil
        outcome.recordedFooter = reader.footer
        outcome.recordingIsTruncated = reader.isTruncated
        outcome.readTwice = stream.fellBack
        outcome.damage = stream.readError
        outcome.divergedAt = divergedAt
        return outcome
    }

    /// The trace's schedule read back as identities on its recorded variant (see
    /// ``replayForVerdict()``), and why it cannot be followed by identity, when it cannot.
    public func identitySchedule() -> (schedule: Schedule, problem: String?) {
        let seed = input.header.seed
        // The plan's variant and noise may differ from the recording's; the schedule is read back on
        // the recording's own (its noise was validated when the plan was made from the header).
        var recordedPlan = plan.withNoise((try? TraceInput.noise(of: input.header, path: input.path)) ?? 0)
        recordedPlan.variant = input.header.variant
        let tapeFollower = ReplayStrategy(tape: input.tape)
        // Every departure's ready set too: a replay on another build completes the file's with them.
        let observer = ScheduleObserver(tapeFollower, keepsReadySets: true)
        let recordedJobs = JobLedger()
        // A recording that crashed is read back up to the step before the trap (its job ran alone
        // or as the last decision; it is not re-run here, where it would take the process down).
        var limits = recordedPlan.scenario.limits
        var crashed = false
        if let footer = input.footer, case .crashed = footer.verdict {
            crashed = true
            limits.maxSteps = max(0, Int(footer.steps) - 1)
        }
        let recorded = recordedPlan.scenario.run(
            variant: recordedPlan.variant, seed: seed, strategy: observer, sink: recordedJobs, limits: limits)
        var schedule = observer.schedule
        // Known work: every job that ran or was ready at a pick (a job the failure cut off still
        // took part in the races before it).
        let known = recordedJobs.jobs.union(observer.offered)
        schedule.jobs = known
        var problem: String?
        if tapeFollower.departures > 0 || tapeFollower.consumed < input.tape.count {
            problem =
                "the trace's schedule does not re-run on its own variant \(input.header.variant) "
                + "(\(tapeFollower.notes.first ?? "it asks for fewer decisions")), so it cannot be followed by identity"
        } else if !crashed, let footer = input.footer, footer.digest != recorded.digest {
            problem =
                "the trace's schedule re-runs differently on its own variant \(input.header.variant) "
                + "(digest \(recorded.digest), recorded \(footer.digest)), so it cannot be followed by identity"
        }
        return (schedule, problem)
    }

    /// The schedule a replay on another build (or one of unknown build) follows, and whether it
    /// was read back exactly.
    ///
    /// When this build re-runs the trace's tape on the recorded variant exactly (as
    /// ``identitySchedule()`` checks: every decision followed, the same digest, or for a crash the
    /// same picks up to the trap), this build's code is the recording's as far as the schedule
    /// goes: that read-back schedule is followed and `readBack` is true, as on the build that
    /// recorded it. Otherwise the schedule is read from the file (``TraceSchedule``), completed with
    /// the ready sets of this build's re-run where it made the recorded picks, and `readBack` is
    /// false. With `rerunning` false the file alone is read (no run of the recording here).
    package func scheduleForOtherBuild(rerunning: Bool = true) throws(SimEngineError)
        -> (schedule: Schedule, readBack: Bool)
    {
        guard rerunning else { return (try TraceSchedule.read(path: input.path), false) }
        let (observed, problem) = identitySchedule()
        if problem == nil { return (observed, true) }
        return (try TraceSchedule.read(path: input.path, observed: observed), false)
    }

    /// Replays the schedule on the plan's (possibly different) variant, for its verdict only.
    ///
    /// The trace's tape is first re-run on the recorded variant through a `ScheduleObserver`, which
    /// reads it back as identities (each departure's job and the jobs it overtook, each data
    /// decision's site and ordinal) and notes every job of the run; that schedule is then followed
    /// on the plan's variant by `ScheduleStrategy`. The outcome tells which departures could not be
    /// followed there.
    public func replayForVerdict() -> Outcome {
        let (schedule, problem) = identitySchedule()
        return replayForVerdict(following: schedule, problem: problem)
    }

    /// Replays `schedule` (read back by ``identitySchedule()``, or by ``scheduleForOtherBuild(rerunning:)``
    /// when the recording's code is another build's) on the plan's variant, for its verdict only.
    func replayForVerdict(following schedule: Schedule, problem: String?) -> Outcome {
        let known = schedule.jobs
        let strategy = ScheduleStrategy(schedule: schedule)
        let replayedJobs = JobLedger(known: known)
        strategy.ledger = replayedJobs
        let result = plan.run(seed: input.header.seed, strategy: strategy, sink: replayedJobs)
        var outcome = Outcome(result: result, divergence: nil, notes: strategy.notes, eventsCompared: 0)
        outcome.tally = strategy.tally
        outcome.tally.unknownJobs = replayedJobs.unknown
        outcome.unfollowed = strategy.unfollowedDeviations(ran: replayedJobs)
        outcome.scheduleProblem = problem
        return outcome
    }
}
