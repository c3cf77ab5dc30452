/// A recorded schedule keyed by identity, not by position: each decision names the job it took (lane,
/// label, ordinal) and the older ready jobs it went ahead of, or the data-decision site and that
/// site's ordinal. `ScheduleStrategy` follows it on other code (another variant, edited code, extra
/// noise lanes), where positions shift but identities hold.
///
/// A schedule is the `fifo` order plus its departures: a departing pick is an ordering constraint
/// ("take `job` when the job `fifo` would run is one it overtook"), a data decision is a value for
/// the n-th asking of its site. Entries that follow `fifo` constrain nothing; they are kept so that a
/// replay can say how much of the recording it followed.
public struct Schedule: Sendable, Hashable {
    /// One decision of the recorded run.
    public struct Entry: Sendable, Hashable {
        /// 1-based position in the recorded tape, as `show` numbers decisions.
        public var number: Int
        /// What kind of choice it was.
        public var kind: DecisionKind
        /// For a pick, the job taken; for a data decision, the site (as `label`, lane empty) and the
        /// how-many-th asking of that site it was (as `ordinal`, from 1).
        public var job: JobKey
        /// For a pick, the job `fifo` would have taken.
        public var fifo: JobKey?
        /// For a departing pick, the ready jobs posted before the taken one: the jobs it went ahead of.
        public var overtaken: [JobKey]
        /// When the schedule was observed for shrinking, every ready job of a pick, oldest first: the
        /// alternatives the shrinker may try instead (of a departure, or of a pick that followed fifo).
        public var ready: [JobKey]
        /// The option taken (the index among the ready jobs, or the data value).
        public var chosen: UInt32
        /// How many options there were.
        public var count: UInt32
        /// The decision departs from `fifo` (a pick ahead of older jobs, a data value other than 0).
        public var isDeviation: Bool

        /// An entry as the observer writes it.
        public init(
            number: Int, kind: DecisionKind, job: JobKey, fifo: JobKey? = nil, overtaken: [JobKey] = [],
            ready: [JobKey] = [], chosen: UInt32, count: UInt32, isDeviation: Bool
        ) {
            self.number = number
            self.kind = kind
            self.job = job
            self.fifo = fifo
            self.overtaken = overtaken
            self.ready = ready
            self.chosen = chosen
            self.count = count
            self.isDeviation = isDeviation
        }

        /// `network/net.response#1 before main/view.layout#2`, `choose net.delay = 2 of 3`.
        public var summary: String {
            switch kind {
            case .pick:
                guard isDeviation, let fifo else { return "\(job)" }
                return "\(job) before \(fifo)"
            default:
                return "\(kind.name) \(job.label)#\(job.ordinal) = \(chosen) of \(count)"
            }
        }
    }

    /// The decisions, in the order the recorded run made them.
    public var entries: [Entry]
    /// Every job the recorded run ran, when known: a replay counts the jobs it ran outside it.
    public var jobs: Set<JobKey>?

    /// A schedule of `entries`, knowing the recorded run's `jobs` when given.
    public init(entries: [Entry] = [], jobs: Set<JobKey>? = nil) {
        self.entries = entries
        self.jobs = jobs
    }

    /// Entries that depart from `fifo`: what a replay must follow, what the shrinker removes.
    public var deviations: [Int] { entries.indices.filter { entries[$0].isDeviation } }

    /// This schedule with only the departures at `kept` (indices into `entries`) and no other entry:
    /// `fifo` everywhere else. The shrinker's candidate.
    public func keeping(_ kept: some Sequence<Int>) -> Schedule {
        Schedule(entries: kept.map { entries[$0] }, jobs: jobs)
    }
}
