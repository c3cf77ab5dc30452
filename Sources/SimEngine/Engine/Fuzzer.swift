import Dispatch
import SimCore

/// Runs many schedules of one plan on worker threads in this process (each simulation on one thread)
/// and keeps the distinct failures. Without `keepGoing` it stops at the failure with the lowest seed,
/// whatever the number of threads, so a campaign's outcome does not depend on `jobs`.
///
/// The campaign logic (seed space, stop line, findings, first-failure rule, goal tallies) is the
/// campaign core's (`Campaign/`); this type only drives `CampaignWorker` on threads over a
/// `ThreadBoard`. `FuzzSupervisor` drives the same worker in processes.
public struct Fuzzer: Sendable, CampaignExecutor {
    /// What a campaign runs.
    public struct Configuration: Sendable {
        /// The seeds to run (the lower bound also starts a `--time` campaign).
        public var seeds: Range<UInt64>
        /// Wall-clock seconds to run for instead of a seed range (the range's lower bound still applies).
        public var seconds: Double?
        /// Worker threads (or processes); at least 1.
        public var jobs: Int
        /// Shard `index` (0-based) of `count`: only seeds `s` with `(s - lower) % count == index`.
        public var shard: (index: Int, count: Int)
        /// Go on after the first failure, collecting every distinct one.
        public var keepGoing: Bool
        /// In-order campaigns in a guarded child: where each run is marked before it starts.
        package var runMarker: RunMarker?
        /// In-order campaigns re-run to record one run: which, and its sink (the campaign stops after it).
        package var recording: InOrderRecording?
        /// Asked between runs: once requested, the campaign stops and reports what ran.
        package var cancellation: Cancellation = .never

        /// A configuration; `jobs` below 1 is taken as 1.
        public init(
            seeds: Range<UInt64>, seconds: Double? = nil, jobs: Int = 1, shard: (Int, Int) = (0, 1),
            keepGoing: Bool = false
        ) {
            self.seeds = seeds
            self.seconds = seconds
            self.jobs = max(1, jobs)
            self.shard = shard
            self.keepGoing = keepGoing
        }

        /// The seeds this configuration runs, index by index.
        public var space: SeedSpace {
            SeedSpace(seeds: seeds, shardIndex: shard.index, shardCount: shard.count, bounded: seconds == nil)
        }

        /// When a `--time` campaign started at `start` ends.
        package func deadline(from start: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            seconds.map { start.advanced(by: .milliseconds(Int64($0 * 1000))) }
        }
    }

    /// One distinct failure: the first seed that showed it and how many runs did.
    public struct Finding: Sendable {
        /// What makes this failure distinct.
        public var signature: FailureSignature
        /// The seed.
        public var seed: UInt64
        /// The failing verdict.
        public var verdict: Verdict
        /// The failing run's decisions.
        public var tape: Tape
        /// Steps the failing run took.
        public var steps: Int
        /// Runs that failed this way.
        public var occurrences: Int
        /// The trace the failing run was recorded in by a child process (nil: run in this process).
        package var trace: String? = nil
    }

    /// A seed whose run trapped, taking its worker process down.
    public struct Crash: Sendable {
        /// The lowest seed whose run trapped this way.
        public var seed: UInt64
        /// The runtime's one-line reason ("Precondition failed: …"), or how the worker ended.
        public var message: String
        /// How many runs trapped this way.
        public var occurrences: Int
        /// The crash as a failure signature (`crashed` oracle, the message's shape).
        public var signature: FailureSignature { FailureSignature(.crashed(message)) }
    }

    /// What a campaign ran and found.
    public struct Report: Sendable {
        /// Schedules run.
        public var schedules: Int
        /// Failing runs.
        public var failures: Int
        /// The distinct failures, each with its lowest seed.
        public var findings: [Finding]
        /// The scenario's `sometimes` goals.
        public var goals: [String]
        /// For each goal, the runs that reached it.
        public var goalCounts: [Int]
        /// Wall-clock seconds the campaign took.
        public var seconds: Double
        /// For `dfs`: the whole space under the bound was explored.
        public var exhausted: Bool
        /// For `dfs`: each preemption bound whose schedules all ran, with the runs taken by then.
        public var exhaustedRounds: [DFSStrategy.Round] = []
        /// For strategies that learn across runs (`surw`, `rff`, `portfolio`): what they learned from,
        /// or why they could not (one line, said once per campaign).
        public var learning: String?
        /// The distinct schedules the runs took and what they saw but did not control.
        public var explored = Explored()
        /// Schedules per wall-clock second.
        public var schedulesPerSecond: Double { seconds > 0 ? Double(schedules) / seconds : 0 }
    }

    /// What runs: the scenario, variant and strategy.
    public let plan: RunPlan
    /// Which seeds, how many jobs, whether to keep going.
    public let configuration: Configuration

    /// A campaign of `plan` over `configuration`'s seeds.
    public init(plan: RunPlan, configuration: Configuration) {
        self.plan = plan
        self.configuration = configuration
    }

    /// Runs the campaign; `progress` is called now and then from one worker (schedules, failures,
    /// distinct, seconds).
    public func run(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void = { _, _, _, _ in }) -> Report {
        runOutcome(progress: progress).report
    }

    package func runCampaign(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void) -> CampaignOutcome {
        runOutcome(progress: progress)
    }

    /// The campaign on threads of this process: the one campaign loop (`CampaignWorker`) over a
    /// `ThreadBoard`, asking the strategy for its next execution. Independent seeds run on `jobs`
    /// threads, each with a strategy object of its own, and each failure's lowest seed runs again
    /// here for its tape. An in-order strategy (`inOrder`: it learns from run to run; `exhaustive`:
    /// it walks a finite tree, its "seeds" are run numbers) is one object on one thread whatever
    /// `jobs` is, and a finding keeps its run's tape (a run cannot be redone from its seed).
    private func runOutcome(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void) -> CampaignOutcome {
        let walker = plan.strategy.makeExhaustiveWalker()
        let shared: (any Strategy)? =
            plan.strategy.campaignShape.isIndependent ? nil : (walker ?? plan.makeStrategy())
        let goals = plan.goals()
        let board = ThreadBoard(
            workers: shared == nil ? configuration.jobs : 1, goals: goals.count,
            cancellation: configuration.cancellation, marker: configuration.runMarker, keepsRuns: shared != nil)
        let start = ContinuousClock.now
        let worker = CampaignWorker(
            plan: plan, space: space(walking: walker != nil), keepGoing: configuration.keepGoing,
            deadline: configuration.deadline(from: start), recording: configuration.recording)
        if let shared {
            worker.run(
                on: board, worker: 0, strategy: shared, afterRun: Self.reporter(board, since: start, to: progress))
        } else {
            DispatchQueue.concurrentPerform(iterations: configuration.jobs) { w in
                guard w == 0 else { return worker.run(on: board, worker: w) }
                worker.run(on: board, worker: w, afterRun: Self.reporter(board, since: start, to: progress))
            }
        }
        var outcome = CampaignOutcome.assemble(
            tally: board.tally(), goals: goals, keepGoing: configuration.keepGoing,
            seconds: (ContinuousClock.now - start).seconds, interrupted: configuration.cancellation.isRequested
        ) { seed in
            let result: RunResult
            if shared != nil {
                // The in-order run as it ran (its strategy's state then cannot be had again).
                guard let kept = board.keptRun(seed: seed) else {
                    preconditionFailure("Fuzzer: the in-order finding at seed \(seed) kept no run")
                }
                result = kept
            } else {
                result = plan.run(seed: seed, strategy: plan.makeStrategy())
            }
            return CampaignOutcome.Rerun(
                verdict: result.verdict, tape: result.tape, steps: result.steps, digest: result.digest.value)
        }
        if let shared {
            outcome.report.exhausted = walker?.isExhausted ?? false
            outcome.report.exhaustedRounds = walker?.exhaustedRounds ?? []
            outcome.report.learning = (shared as? any CampaignLearner)?.learningNote
            // Lock orders are followed up by re-running a seed on its own, which an in-order run is not.
            outcome.lockOrder = LockOrderTable()
        }
        return outcome
    }

    /// What one worker calls after each run: `progress` with the board's tally, twice a second at most.
    private static func reporter(
        _ board: ThreadBoard, since start: ContinuousClock.Instant,
        to progress: @escaping @Sendable (Int, Int, Int, Double) -> Void
    ) -> () -> Void {
        var lastReport = start
        return {
            guard ContinuousClock.now - lastReport > .milliseconds(500) else { return }
            lastReport = ContinuousClock.now
            let tally = board.tally()
            progress(
                tally.runs, tally.findings.failingRuns, tally.findings.count, (ContinuousClock.now - start).seconds)
        }
    }

    /// The seeds the loop runs: the configuration's space, or for an exhaustive walk run numbers
    /// from 0 (as many as the range holds, or unbounded for `--time`); a recording re-run ends at
    /// the run it records.
    private func space(walking: Bool) -> SeedSpace {
        var space =
            walking
            ? SeedSpace(seeds: 0..<UInt64(configuration.seeds.count), bounded: configuration.seconds == nil)
            : configuration.space
        if let recording = configuration.recording, let last = space.seed(at: UInt64(recording.run)) {
            space.seeds = space.seeds.lowerBound..<(last + 1)
            space.bounded = true
        }
        return space
    }
}

extension Duration {
    /// This duration in seconds, as a Double (for rates and progress).
    package var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
