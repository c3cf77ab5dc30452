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

    private func runOutcome(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void) -> CampaignOutcome {
        if !plan.strategy.campaignShape.isIndependent { return runInOrder(progress: progress) }
        let goals = plan.goals()
        let board = ThreadBoard(
            workers: configuration.jobs, goals: goals.count, cancellation: configuration.cancellation)
        let start = ContinuousClock.now
        let worker = CampaignWorker(
            plan: plan, space: configuration.space, keepGoing: configuration.keepGoing,
            deadline: configuration.deadline(from: start))
        DispatchQueue.concurrentPerform(iterations: configuration.jobs) { w in
            guard w == 0 else { return worker.run(on: board, worker: w) }
            var lastReport = start
            worker.run(
                on: board, worker: w,
                afterRun: {
                    guard ContinuousClock.now - lastReport > .milliseconds(500) else { return }
                    lastReport = ContinuousClock.now
                    let tally = board.tally()
                    progress(
                        tally.runs, tally.findings.failingRuns, tally.findings.count,
                        (ContinuousClock.now - start).seconds)
                })
        }
        // Each failure's lowest seed runs again here for its tape (this process runs the code).
        return CampaignOutcome.assemble(
            tally: board.tally(), goals: goals, keepGoing: configuration.keepGoing,
            seconds: (ContinuousClock.now - start).seconds, interrupted: configuration.cancellation.isRequested
        ) { seed in
            let result = plan.run(seed: seed, strategy: plan.makeStrategy())
            return CampaignOutcome.Rerun(
                verdict: result.verdict, tape: result.tape, steps: result.steps, digest: result.digest.value)
        }
    }

    /// `dfs` walks one tree, so it runs on one thread until the space under its bound is exhausted. Its
    /// "seeds" are run numbers, not a seed space, and a run cannot be redone from its seed (the tree
    /// walk is the strategy's state), so each finding keeps its run's tape as it goes. The learning
    /// strategies (`learnsAcrossRuns`) carry what they learned from run to run: one strategy object
    /// walks the seed space in order on one thread (whatever `jobs` is), and a finding keeps its tape
    /// for the same reason.
    private func runInOrder(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void) -> CampaignOutcome {
        let dfs = plan.strategy.makeExhaustiveWalker()
        let strategy: any Strategy = dfs ?? plan.makeStrategy()
        let goals = plan.goals()
        var table = FindingsTable<RunResult>()
        let start = ContinuousClock.now
        var runs = 0
        var goalTally = GoalTally(goals: goals.count)
        var explored = Explored()
        var lastReport = start
        let deadline = configuration.deadline(from: start)
        let maxRuns =
            configuration.recording.map { $0.run + 1 }
            ?? (configuration.seconds == nil ? Int(configuration.seeds.count) : Int.max)
        while dfs?.hasMore ?? true, runs < maxRuns {
            // A recording re-run goes to its run whatever the clock says: it must learn the same.
            if configuration.recording == nil, let deadline, ContinuousClock.now >= deadline { break }
            if configuration.cancellation.isRequested { break }
            let next = dfs == nil ? configuration.space.seed(at: UInt64(runs)) : UInt64(runs)
            guard let seed = next else { break }
            configuration.runMarker?.mark(run: runs, seed: seed)
            if let recording = configuration.recording, recording.run == runs {
                recording.seed = seed
                recording.result = plan.run(seed: seed, strategy: strategy, sink: recording.sink)
                runs += 1
                break
            }
            let result = plan.run(seed: seed, strategy: strategy)
            runs += 1
            goalTally.count(result)
            explored.add(result, seed: seed)
            if result.verdict.isFailure {
                table.record(signature: FailureSignature(result.verdict).id, seed: seed, evidence: result)
                if !configuration.keepGoing { break }
            }
            if ContinuousClock.now - lastReport > .milliseconds(500) {
                lastReport = ContinuousClock.now
                progress(runs, table.failingRuns, table.count, (ContinuousClock.now - start).seconds)
            }
        }
        let findings = table.entries.map { entry in
            Finding(
                signature: FailureSignature(entry.evidence.verdict), seed: entry.seed, verdict: entry.evidence.verdict,
                tape: entry.evidence.tape, steps: entry.evidence.steps, occurrences: entry.occurrences)
        }
        let report = Report(
            schedules: runs, failures: table.failingRuns, findings: findings, goals: goals,
            goalCounts: goalTally.counts(for: goals.count), seconds: (ContinuousClock.now - start).seconds,
            exhausted: dfs?.isExhausted ?? false, exhaustedRounds: dfs?.exhaustedRounds ?? [],
            learning: (strategy as? any CampaignLearner)?.learningNote, explored: explored)
        return CampaignOutcome(
            report: report, crashes: [], interrupted: configuration.cancellation.isRequested, nondeterministic: [])
    }
}

extension Duration {
    /// This duration in seconds, as a Double (for rates and progress).
    package var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
