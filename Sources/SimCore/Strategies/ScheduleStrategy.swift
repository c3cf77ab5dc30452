/// Follows a `Schedule` by identity: `fifo`, except where a departure of the schedule applies.
///
/// At each pick the job `fifo` would run is looked up among the jobs the schedule's departures went
/// ahead of: when a ready job of the schedule overtook it in the recording, that job runs now (the
/// earliest such decision first) and the decision counts as followed. Jobs the schedule does not
/// know (when `schedule.jobs` lists the recorded run's jobs) run where they become ready, oldest
/// first, so code that adds or removes unrelated work (another variant, noise lanes) still meets the
/// recorded races. Data decisions are matched by
/// site and by how many times that site has asked.
///
/// After a run, `followed` says which entries were followed; a departure that was not (its job
/// never existed, or never met the job it overtook) is listed in `notes` and `unfollowedDeviations`,
/// with what the run saw of it (``Unfollowed/Reason``). On the code that recorded it, a schedule is
/// followed exactly and reproduces the run.
public final class ScheduleStrategy: Strategy {
    /// The schedule followed.
    public let schedule: Schedule
    /// Departing picks by the job they took (first entry wins).
    private let departures: [JobKey: Int]
    /// For each entry, the jobs it overtook (empty for all but departing picks).
    private let overtaken: [Set<JobKey>]
    /// Non-departing picks by their job.
    private let plainPicks: [JobKey: Int]
    private let data: [DataKey: Int]
    private var symbols = SymbolTable()
    private var siteCounts: [String: UInt32] = [:]
    private var applied: [Bool] = []
    /// Per entry: its job was offered at a pick / offered while a job it overtook was ready too
    /// (whether or not its job was the one fifo would run then).
    private var offered: [Bool] = []
    private var met: [Bool] = []
    /// Departures not yet applied in this run (skip the look-ups when none is left).
    private var departuresLeft = 0
    /// Which entries of the schedule the last run followed.
    public private(set) var followed: [Bool] = []
    /// The departures the last run could not follow, and why (at most 20).
    public private(set) var notes: [String] = []

    struct DataKey: Hashable {
        var kind: DecisionKind
        var site: String
        var ordinal: UInt32
    }

    /// Follows `schedule` in every run it is used for.
    public init(schedule: Schedule) {
        self.schedule = schedule
        var departures: [JobKey: Int] = [:]
        var plainPicks: [JobKey: Int] = [:]
        var data: [DataKey: Int] = [:]
        for (index, entry) in schedule.entries.enumerated() {
            if entry.kind == .pick {
                if entry.isDeviation {
                    if departures[entry.job] == nil { departures[entry.job] = index }
                } else if plainPicks[entry.job] == nil {
                    plainPicks[entry.job] = index
                }
            } else {
                let key = DataKey(kind: entry.kind, site: entry.job.label, ordinal: entry.job.ordinal)
                if data[key] == nil { data[key] = index }
            }
        }
        self.departures = departures
        self.plainPicks = plainPicks
        self.data = data
        overtaken = schedule.entries.map { Set($0.overtaken) }
    }

    /// `replay`: a recorded schedule followed by identity.
    public var description: String { "replay" }

    /// Starts following the schedule from its first decision, with nothing run yet.
    public func start(seed: UInt64, symbols: SymbolTable) {
        self.symbols = symbols
        siteCounts.removeAll(keepingCapacity: true)
        applied = Array(repeating: false, count: schedule.entries.count)
        followed = applied
        offered = applied
        met = applied
        departuresLeft = departures.count
        notes.removeAll()
    }

    private func key(_ candidate: Candidate, _ table: SymbolTable) -> JobKey {
        JobKey(lane: table[candidate.lane], label: table[candidate.label], ordinal: candidate.ordinal)
    }

    /// Fifo, except where a recorded race is on: then the job the schedule took ahead of the ones it overtook.
    public func pick(_ ready: ReadySet) -> Int {
        let table = ready.symbols
        let fifo = ready.fifoIndex
        if let known = schedule.jobs {
            // Work the recording never had (new code, another variant's extra jobs) runs where it
            // becomes ready, oldest first, so the recorded jobs meet each other as they did.
            var unknown: Int?
            for index in ready.indices where !known.contains(key(ready[index], table)) {
                if let current = unknown, ready[current].seq < ready[index].seq { continue }
                unknown = index
            }
            if let unknown { return unknown }
        }
        let fifoKey = key(ready[fifo], table)
        if departuresLeft > 0 {
            var best: (entry: Int, index: Int)?
            var keys: [JobKey] = []
            for index in ready.indices where index != fifo {
                guard let entry = departures[key(ready[index], table)], !applied[entry] else { continue }
                offered[entry] = true
                if !met[entry] {
                    if keys.isEmpty { keys = ready.indices.map { key(ready[$0], table) } }
                    met[entry] = keys.contains { overtaken[entry].contains($0) }
                }
                guard overtaken[entry].contains(fifoKey) else { continue }
                if let current = best, current.entry < entry { continue }
                best = (entry, index)
            }
            if let best {
                applied[best.entry] = true
                followed[best.entry] = true
                departuresLeft -= 1
                return best.index
            }
        }
        if let entry = plainPicks[fifoKey] { followed[entry] = true }
        if departuresLeft > 0, let entry = departures[fifoKey], !applied[entry] {
            // The departure's job is the oldest ready: it runs by fifo, ahead of whatever it meets
            // here. Meeting a job it overtook this way is no race removed: that job was never the
            // one fifo would run while this one waited (`neverAhead`).
            offered[entry] = true
            if !met[entry] {
                met[entry] = ready.indices.contains { $0 != fifo && overtaken[entry].contains(key(ready[$0], table)) }
            }
        }
        return fifo
    }

    /// The recorded value for this site's next ordinal, or the default (0) when the schedule has none.
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        let text = symbols[site]
        let ordinal = (siteCounts[text] ?? 0) + 1
        siteCounts[text] = ordinal
        guard let entry = data[DataKey(kind: kind, site: text, ordinal: ordinal)] else { return 0 }
        let wanted = schedule.entries[entry].chosen
        guard Int(wanted) < count else { return 0 }
        followed[entry] = true
        return Int(wanted)
    }

    /// The run's ledger, if the caller records one: notes then tell why more precisely.
    public var ledger: JobLedger?

    /// Ends the run with a note for each recorded departure it could not follow (at most 20).
    public func finish(steps: Int) {
        for missed in unfollowedDeviations(ran: ledger).prefix(20) {
            notes.append(
                "decision \(missed.entry.number) (\(missed.entry.summary)) could not be followed: \(missed.why)")
        }
    }

    /// A departure of the schedule that a run could not follow, and what the run saw of it.
    public struct Unfollowed: Sendable, Hashable {
        /// What the run saw of the departure's job (`J`) and the jobs it overtook in the recording
        /// (`O`). Decided in this order: `siteDiffers` (a data decision), `unnamed`, `neverAhead`,
        /// then from the run's `JobLedger`: `missing`, `vanished`, `ordered`, `apart`.
        public enum Reason: Sendable, Hashable {
            /// `J` never ran (or, without a `JobLedger`, was never one of several ready jobs).
            case missing
            /// `J` ran, but a job of `O` never ran: the work it overtook is gone (or cancelled).
            case vanished
            /// `J` and every job of `O` ran, `J` only after them all: this code orders them, the race is gone.
            case ordered
            /// `J` and the jobs of `O` ran, but `J` was never ready at a pick together with any of them.
            case apart
            /// `J` was ready at a pick together with a job of `O`, but never while the job `fifo` would
            /// run was one of `O` (either `J` was the oldest, or a third job was): the race exists,
            /// the recorded moment of it never came.
            case neverAhead
            /// A data decision whose site was asked fewer times, or with fewer options.
            case siteDiffers
            /// The schedule does not name the jobs `J` went ahead of (read from a trace whose
            /// overtaken jobs never ran before the recording ended): nothing can be said of the race.
            case unnamed
        }

        /// The departure.
        public var entry: Schedule.Entry
        /// Why it could not be followed.
        public var reason: Reason
        /// For `missing` and `vanished`: every job that never ran was cancelled (a job labelled
        /// `<its label>.cancelled` ran on its lane, as a `task.sleep` cut short by cancellation does).
        public var cancelled: Bool

        /// An unfollowed departure and why.
        public init(entry: Schedule.Entry, reason: Reason, cancelled: Bool = false) {
            self.entry = entry
            self.reason = reason
            self.cancelled = cancelled
        }

        /// The jobs of `O` that never ran (for `vanished`), set by ``unfollowedDeviations(ran:)``.
        public var vanished: [JobKey] = []

        /// Why, in words.
        public var why: String {
            let overtaken = entry.overtaken.map(\.description).joined(separator: ", ")
            let gone = vanished.map(\.description).joined(separator: ", ")
            return switch reason {
            case .missing where cancelled:
                "\(entry.job) was cancelled here (its lane ran \(entry.job.label).cancelled instead)"
            case .missing: "\(entry.job) never ran here, or never with another job ready"
            case .vanished where cancelled:
                "\(gone), which \(entry.job) went ahead of, was cancelled here (its lane ran "
                    + "\(vanished.first?.label ?? "").cancelled instead)"
            case .vanished: "\(gone), which \(entry.job) went ahead of, never ran here"
            case .ordered: "\(entry.job) ran only after \(overtaken): this code orders them, the race is gone"
            case .apart: "\(entry.job) was never ready together with \(overtaken)"
            case .neverAhead: "\(entry.job) met \(overtaken), but never when fifo would run one of them"
            case .siteDiffers:
                "site \(entry.job.label) was not asked a \(entry.job.ordinal). time with \(entry.count) options"
            case .unnamed:
                "the trace does not name the jobs \(entry.job) went ahead of (none of them ran before the recording ended)"
            }
        }
    }

    /// Departures from `fifo` the last run could not follow, in schedule order. With the run's
    /// `JobLedger` (`ran`), a job that only ran alone is told apart from one that never ran, and a
    /// cancelled job from one that is gone.
    public func unfollowedDeviations(ran: JobLedger? = nil) -> [Unfollowed] {
        // Lanes and labels whose job was cancelled: `lane/label.cancelled` ran.
        var cancelledJobs: Set<JobKey> = []
        for job in ran?.jobs ?? [] where job.label.hasSuffix(".cancelled") {
            let label = String(job.label.dropLast(".cancelled".count))
            cancelledJobs.insert(JobKey(lane: job.lane, label: label, ordinal: 0))
        }
        func wasCancelled(_ job: JobKey) -> Bool {
            cancelledJobs.contains(JobKey(lane: job.lane, label: job.label, ordinal: 0))
        }
        return schedule.entries.indices.filter { schedule.entries[$0].isDeviation && !followed[$0] }.map { index in
            let entry = schedule.entries[index]
            guard entry.kind == .pick else { return Unfollowed(entry: entry, reason: .siteDiffers) }
            if entry.overtaken.isEmpty { return Unfollowed(entry: entry, reason: .unnamed) }
            if met[index] { return Unfollowed(entry: entry, reason: .neverAhead) }
            guard let ran else { return Unfollowed(entry: entry, reason: offered[index] ? .apart : .missing) }
            guard let step = ran.ranAt[entry.job] else {
                return Unfollowed(entry: entry, reason: .missing, cancelled: wasCancelled(entry.job))
            }
            let gone = entry.overtaken.filter { ran.ranAt[$0] == nil }
            if !gone.isEmpty {
                var missed = Unfollowed(entry: entry, reason: .vanished, cancelled: gone.allSatisfy(wasCancelled))
                missed.vanished = gone
                return missed
            }
            let ordered = entry.overtaken.allSatisfy { ran.ranAt[$0].map { $0 < step } ?? false }
            return Unfollowed(entry: entry, reason: ordered ? .ordered : .apart)
        }
    }

    /// How much of the schedule the last run followed.
    public var tally: ScheduleTally {
        var tally = ScheduleTally()
        for (index, entry) in schedule.entries.enumerated() {
            tally.decisions += 1
            if followed[index] { tally.followed += 1 }
            if entry.isDeviation {
                tally.deviations += 1
                if followed[index] { tally.followedDeviations += 1 }
            }
        }
        return tally
    }
}

/// How much of a recorded schedule a replay followed.
public struct ScheduleTally: Sendable, Hashable, Codable {
    /// Decisions of the recording.
    public var decisions = 0
    /// Of those, the ones the replay followed.
    public var followed = 0
    /// Decisions of the recording that depart from `fifo`.
    public var deviations = 0
    /// Of those, the ones the replay followed.
    public var followedDeviations = 0
    /// Jobs that ran and were not in the recorded run (nil when not counted).
    public var unknownJobs: Int?

    /// A tally of the given counts.
    public init(
        decisions: Int = 0, followed: Int = 0, deviations: Int = 0, followedDeviations: Int = 0, unknownJobs: Int? = nil
    ) {
        self.decisions = decisions
        self.followed = followed
        self.deviations = deviations
        self.followedDeviations = followedDeviations
        self.unknownJobs = unknownJobs
    }

    /// Every departure from `fifo` was followed: the recorded races happened.
    public var isConclusive: Bool { followedDeviations == deviations }

    /// `followed 12 of 14 decisions (all 2 non-fifo); 3 jobs not in the trace ran in fifo order`
    public var line: String {
        let nonFifo =
            followedDeviations == deviations
            ? "all \(deviations) non-fifo" : "\(followedDeviations) of \(deviations) non-fifo"
        var text = "followed \(followed) of \(decisions) decisions (\(nonFifo))"
        if let unknownJobs {
            text += "; \(unknownJobs) job\(unknownJobs == 1 ? "" : "s") not in the trace ran in fifo order"
        }
        return text
    }
}
