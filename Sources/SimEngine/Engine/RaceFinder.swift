import SimCore
import SimTrace

/// Names the race of a failing trace: the non-fifo decision that, sent back to `fifo` with every
/// other decision of the trace kept (by identity, as the shrinker keeps them), makes the failure go
/// away. Each candidate is a real re-run. A decision that only moves noise (`--noise` lanes, which
/// touch nothing an oracle reads) is never the race, and neither is one that overtook only noise.
public struct RaceFinder {
    /// The scenario, variant, strategy and noise the trace was recorded with.
    public let plan: RunPlan
    /// The trace's seed.
    public let seed: UInt64
    /// The trace's decisions, in order.
    public let tape: Tape
    /// The failure a flip must remove to be the race.
    public let target: FailureSignature

    /// A trace's failing run (`tape` from `seed` on `plan`), and the failure it ends with.
    public init(plan: RunPlan, seed: UInt64, tape: Tape, target: FailureSignature) {
        self.plan = plan
        self.seed = seed
        self.tape = tape
        self.target = target
    }

    /// One non-fifo decision and what sending it back to fifo did.
    public struct Flip: Sendable, Hashable {
        /// 1-based, as `show` numbers decisions.
        public var number: Int
        /// `task.2/start#1 before task.1/start#1`, or `choose net.delay#1 = 2 of 3`.
        public var summary: String
        /// For a pick, the job taken ahead of older ones; for a data decision, its site.
        public var job: JobKey
        /// For a pick, the ready jobs it went ahead of that are not noise: the racing jobs.
        public var overtook: [JobKey]
        /// The decision moves only noise (or overtook only noise).
        public var isNoise: Bool
        /// Sent back to fifo, every other decision kept, the run did not fail this way.
        public var removesFailure: Bool
    }

    /// What the flips found.
    public struct Report: Sendable {
        /// Every non-fifo decision of the trace, flipped one at a time.
        public var flips: [Flip]
        /// The trace's schedule, kept by identity, still fails this way (else nothing can be named).
        public var reproduces: Bool
        /// Every decision sent back to fifo, the run still fails this way: no decision causes it.
        public var failsUnderFifo = false
        /// The race: the first non-noise flip that removes the failure; nil when none does.
        public var race: Flip? { flips.first { $0.removesFailure && !$0.isNoise } }
    }

    /// Whether a lane is one of `--noise`'s (`noise.1`, …).
    public static func isNoise(_ lane: String) -> Bool { lane.hasPrefix("noise.") }

    /// Flips every non-fifo decision in turn (one re-run each, plus one for the whole schedule).
    public func find() -> Report {
        let observer = ScheduleObserver(ReplayStrategy(tape: tape), keepsReadySets: true)
        _ = plan.run(seed: seed, strategy: observer)
        let schedule = observer.schedule
        let departures = schedule.deviations
        let whole = plan.run(seed: seed, strategy: ScheduleStrategy(schedule: schedule))
        guard target.matches(whole.verdict) else { return Report(flips: [], reproduces: false) }
        let fifo = plan.run(seed: seed, strategy: ScheduleStrategy(schedule: schedule.keeping([])))
        if target.matches(fifo.verdict) { return Report(flips: [], reproduces: true, failsUnderFifo: true) }
        let flips = departures.map { index in
            let entry = schedule.entries[index]
            let kept = departures.filter { $0 != index }
            let result = plan.run(seed: seed, strategy: ScheduleStrategy(schedule: schedule.keeping(kept)))
            let racing = entry.kind == .pick ? entry.overtaken.filter { !Self.isNoise($0.lane) } : []
            let noise = entry.kind == .pick && (Self.isNoise(entry.job.lane) || racing.isEmpty)
            return Flip(
                number: entry.number, summary: entry.summary, job: entry.job, overtook: racing, isNoise: noise,
                removesFailure: !target.matches(result.verdict))
        }
        return Report(flips: flips, reproduces: true)
    }
}

extension RaceFinder.Flip {
    /// `decision 3: task.2/start#1 overtook task.1/start#1`, or `decision 2: choose net.delay#1 = 2 of 3`.
    public var sentence: String {
        guard !overtook.isEmpty else { return "decision \(number): \(summary)" }
        return "decision \(number): \(job) overtook \(overtook.map(\.description).joined(separator: ", "))"
    }
}
