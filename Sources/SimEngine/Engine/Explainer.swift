import SimCore
import SimTrace

/// Finds the decision of a failing schedule after which its failure is certain.
///
/// For every prefix length `i` (keep decisions `0..<i`, random after) the failure is re-fuzzed
/// `runs` times with seeds `0..<runs` on the `Fuzzer`, and counted when its `FailureSignature` is the
/// trace's. The rates depend only on the trace and `runs` (every seed of every row runs, whatever
/// `jobs`). The decisive decision is the first from which every longer prefix fails every time.
public struct Explainer {
    /// One decision of the trace and how often the failure survives keeping it.
    public struct Row: Sendable {
        /// 1-based, as `show` numbers decisions.
        public var number: Int
        /// The decision as the trace recorded it.
        public var decision: Decision
        /// What the decision was offered, from an instrumented re-run of the trace's schedule.
        public var offer: ObservingStrategy.Offer?
        /// Virtual nanoseconds when the decision was made.
        public var time: Int64
        /// Runs that failed the same way, keeping decisions 1...number.
        public var failures: Int
        /// For a data decision, its site (`net.delay`); nil for a pick.
        public var site: String?
        /// For a pick explained without re-running the trace (a crash), the job the trace says it took.
        public var job: JobKey? = nil

        /// What the decision took: the job for a pick, `choose net.delay = 2 of 3` for a data
        /// decision (as `show` writes it).
        public var took: String {
            if let taken = offer?.taken ?? job { return taken.description }
            let name = site.map { " \($0)" } ?? ""
            return "\(decision.kind.name)\(name) = \(decision.chosen) of \(decision.count)"
        }
    }

    /// The table `explain` prints: how often the failure survives keeping each prefix of the schedule.
    public struct Explanation: Sendable {
        /// Failing runs with no decision kept (the plain random rate).
        public var baseline: Int
        /// One row per decision of the trace, in order.
        public var rows: [Row]
        /// Runs per row (seeds `0..<runs`).
        public var runs: Int
        /// The index in `rows` of the decision after which the failure is certain; nil when the
        /// failure is certain from the start, or not even with the whole schedule kept.
        public var decisive: Int?
        /// Where the instrumented re-run could not follow the trace.
        public var notes: [String]

        /// The failure happens in every run kept by the whole schedule.
        public var reproduces: Bool { (rows.last?.failures ?? baseline) == runs }
    }

    /// What runs: the scenario, variant and strategy.
    public let plan: RunPlan
    /// The trace explained.
    public let input: TraceInput
    /// The failure counted: the trace's.
    public let target: FailureSignature
    /// Runs per row (seeds `0..<runs`).
    public let runs: Int
    /// Worker threads; the rates do not depend on it.
    public let jobs: Int

    /// An explainer of `input`'s failure `target`, re-fuzzing `runs` times per decision on `jobs` threads.
    public init(plan: RunPlan, input: TraceInput, target: FailureSignature, runs: Int, jobs: Int) {
        self.plan = plan
        self.input = input
        self.target = target
        self.runs = max(1, runs)
        self.jobs = max(1, jobs)
    }

    /// Computes every rate; `progress` hears (rows done, rows in all).
    public func explain(progress: (Int, Int) -> Void = { _, _ in }) -> Explanation {
        let tape = input.tape
        let (offers, times, notes) = observe(tape)
        var rates: [Int] = []
        for keep in 0...tape.count {
            progress(keep, tape.count + 1)
            rates.append(failures(keeping: keep))
        }
        let rows = tape.decisions.indices.map { index in
            Row(
                number: index + 1, decision: tape.decisions[index], offer: index < offers.count ? offers[index] : nil,
                time: index < times.count ? times[index] : 0, failures: rates[index + 1],
                site: tape.decisions[index].kind == .pick ? nil : tape.text(tape.decisions[index].label))
        }
        return Explanation(
            baseline: rates[0], rows: rows, runs: runs, decisive: Self.decisive(rates: rates, runs: runs), notes: notes)
    }

    /// Failing runs (same signature) among seeds `0..<runs` keeping `keep` decisions.
    func failures(keeping keep: Int) -> Int {
        var rowPlan = plan
        rowPlan.strategy = .uniformSampling
        rowPlan.prefix = SchedulePrefix(tape: input.tape, keep: keep)
        let configuration = Fuzzer.Configuration(seeds: 0..<UInt64(runs), jobs: jobs, keepGoing: true)
        let report = Fuzzer(plan: rowPlan, configuration: configuration).run()
        return report.findings.first { $0.signature == target }?.occurrences ?? 0
    }

    /// Re-runs the trace's schedule, noting each decision's ready set and virtual time.
    func observe(_ tape: Tape) -> ([ObservingStrategy.Offer], [Int64], [String]) {
        let replay = ReplayStrategy(tape: tape)
        let observer = ObservingStrategy(replay)
        let clock = DecisionClock()
        _ = plan.run(seed: input.header.seed, strategy: observer, sink: clock)
        return (observer.offers, clock.times, replay.notes)
    }
}

/// Notes the virtual time of each decision (the time of the last event before it).
package final class DecisionClock: EventSink {
    private(set) var times: [Int64] = []
    private var now: Int64 = 0

    package func define(_ symbol: Symbol, _ text: String) {}
    package func record(_ event: Event) { now = event.time }
    package func record(_ decision: Decision) { times.append(now) }
}

extension Explainer {
    /// Explains the trace's failure where `isolation` runs the code: a crash with every re-fuzzed run
    /// in a child of its own (``explainCrash(launcher:progress:)``; a crash cannot be explained
    /// without one), any other failure here (``explain(progress:)``).
    package func explain(isolation: Isolation, progress: (Int, Int) -> Void = { _, _ in }) throws(SimEngineError)
        -> Explanation
    {
        guard input.footer?.verdict.isCrash == true else { return explain(progress: progress) }
        let launcher = try isolation.launcher(for: "\(input.path): the recorded run crashed; explaining it")
        return try explainCrash(launcher: launcher, progress: progress)
    }

    /// Explains a crash: the same table as ``explain(progress:)``, but every re-fuzzed run is
    /// recorded in a child process (``ChildJob/record(_:)``, random after the kept prefix), where a trap
    /// ends only that child. A run counts when it is the trace's crash: the same ``CrashPlace`` (the
    /// same job, the same message where both have one, the same functions where both name them, so
    /// a release build's runs count for a debug build's trace). The trace's schedule is not re-run
    /// here (it traps),
    /// so rows carry no offer; each decision's time is read from the trace. `runs` children per
    /// decision, started by `launcher`.
    package func explainCrash(launcher: ProcessLauncher, progress: (Int, Int) -> Void = { _, _ in })
        throws(SimEngineError) -> Explanation
    {
        let tape = input.tape
        let times = try Self.decisionTimes(path: input.path)
        let recorded = try CrashPlace(path: input.path)
        let base = try plan.descriptor()
        let scratch = try DeterminismCheck.temporaryTracePath("crash-explain")
        defer { unlink(scratch) }
        var rates: [Int] = []
        for keep in 0...tape.count {
            progress(keep, tape.count + 1)
            var failing = 0
            for seed in 0..<UInt64(runs) {
                let recording = IsolatedRecording(
                    plan: base.with(strategy: .uniformSampling, prefix: .init(source: input.path, keep: keep)),
                    launcher: launcher)
                let outcome = try recording.record(seed: seed, to: scratch)
                defer { unlink(scratch) }
                if outcome.crashed, try recorded.isSameCrash(as: CrashPlace(path: scratch)) { failing += 1 }
            }
            rates.append(failing)
        }
        let rows = tape.decisions.indices.map { index in
            let decision = tape.decisions[index]
            return Row(
                number: index + 1, decision: decision, offer: nil, time: index < times.count ? times[index] : 0,
                failures: rates[index + 1], site: decision.kind == .pick ? nil : tape.text(decision.label),
                job: decision.kind == .pick
                    ? JobKey(
                        lane: tape.text(decision.lane), label: tape.text(decision.label), ordinal: decision.ordinal)
                    : nil)
        }
        return Explanation(
            baseline: rates[0], rows: rows, runs: runs, decisive: Self.decisive(rates: rates, runs: runs), notes: [])
    }

    /// The decisive decision's index, given the failing runs of each row (`rates[0]`: nothing kept):
    /// certain from row k when rows k... all fail every run and the rate just before is lower; nil
    /// when the last row does not fail every run, or when even keeping nothing does.
    static func decisive(rates: [Int], runs: Int) -> Int? {
        guard rates.last == runs else { return nil }
        var first = rates.count - 1
        while first > 0 && rates[first - 1] == runs { first -= 1 }
        return first == 0 ? nil : first - 1
    }

    /// The virtual time of each decision (the time of the last event before it), read from the file.
    static func decisionTimes(path: String) throws(SimEngineError) -> [Int64] {
        let reader: TraceReader
        do {
            reader = try TraceReader(path: path)
        } catch {
            throw TraceInput.failure(error)
        }
        var now: Int64 = 0
        var times: [Int64] = []
        do {
            while let record = try reader.next() {
                switch record {
                case .event(let event): now = event.time
                case .decision: times.append(now)
                default: continue
                }
            }
        } catch {
            throw TraceInput.failure(error)
        }
        return times
    }
}
