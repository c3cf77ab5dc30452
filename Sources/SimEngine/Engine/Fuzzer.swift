import Dispatch
import SimCore
import Synchronization

/// Runs many schedules of one plan, on several threads (each simulation single-threaded), and keeps
/// the distinct failures. Without `keepGoing` it stops at the failure with the lowest seed, whatever
/// the number of threads, so a campaign's outcome does not depend on `jobs`.
public struct Fuzzer: Sendable {
    public struct Configuration: Sendable {
        public var seeds: Range<UInt64>
        /// Wall-clock seconds to run for instead of a seed range (the range's lower bound still applies).
        public var seconds: Double?
        public var jobs: Int
        /// Shard `index` (0-based) of `count`: only seeds `s` with `(s - lower) % count == index`.
        public var shard: (index: Int, count: Int)
        public var keepGoing: Bool

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
    }

    /// One distinct failure: the first seed that showed it and how many runs did.
    public struct Finding: Sendable {
        public var signature: FailureSignature
        public var seed: UInt64
        public var verdict: Verdict
        public var tape: Tape
        public var steps: Int
        public var occurrences: Int
    }

    public struct Report: Sendable {
        public var schedules: Int
        public var failures: Int
        public var findings: [Finding]
        public var goals: [String]
        public var goalCounts: [Int]
        public var seconds: Double
        /// For `dfs`: the whole space under the bound was explored.
        public var exhausted: Bool
        /// For `dfs`: each preemption bound whose schedules all ran, with the runs taken by then.
        public var exhaustedRounds: [DFSStrategy.Round] = []
        public var schedulesPerSecond: Double { seconds > 0 ? Double(schedules) / seconds : 0 }
    }

    public let plan: RunPlan
    public let configuration: Configuration

    public init(plan: RunPlan, configuration: Configuration) {
        self.plan = plan
        self.configuration = configuration
    }

    /// Runs the campaign; `progress` is called now and then from one worker (schedules, failures,
    /// distinct, seconds).
    public func run(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void = { _, _, _, _ in }) -> Report {
        if plan.strategy.kind == .dfs { return runExhaustive(progress: progress) }
        let state = SharedState(goalCount: plan.goals().count)
        let start = ContinuousClock.now
        let config = configuration
        let deadline = config.seconds.map { start.advanced(by: .milliseconds(Int64($0 * 1000))) }
        let plan = self.plan
        DispatchQueue.concurrentPerform(iterations: config.jobs) { worker in
            let strategy = plan.makeStrategy()
            var lastReport = ContinuousClock.now
            var localRuns = 0
            var goalCounts = GoalTally()
            while true {
                let index = state.nextIndex.add(1, ordering: .relaxed).oldValue
                let offset = index &* UInt64(config.shard.count) &+ UInt64(config.shard.index)
                let seed = config.seeds.lowerBound &+ offset
                if seed < config.seeds.lowerBound || (config.seconds == nil && seed >= config.seeds.upperBound) {
                    break
                }
                if state.stopSeed.load(ordering: .relaxed) < seed { break }
                if let deadline, localRuns % 64 == 0, ContinuousClock.now >= deadline { break }
                if state.interrupted.load(ordering: .relaxed) || Interruption.isRequested { break }
                let result = plan.run(seed: seed, strategy: strategy)
                localRuns += 1
                goalCounts.count(result)
                if result.verdict.isFailure {
                    state.record(seed: seed, result: result)
                    if !config.keepGoing { state.lowerStopSeed(to: seed) }
                }
                if worker == 0, ContinuousClock.now - lastReport > .milliseconds(500) {
                    lastReport = ContinuousClock.now
                    let (failures, distinct) = state.counts()
                    progress(
                        state.runs.load(ordering: .relaxed) + localRuns, failures, distinct,
                        (ContinuousClock.now - start).seconds)
                }
                if localRuns % 256 == 0 {
                    state.runs.add(localRuns, ordering: .relaxed)
                    localRuns = 0
                }
            }
            state.runs.add(localRuns, ordering: .relaxed)
            state.addGoals(goalCounts.counts)
        }
        return state.report(plan: plan, keepGoing: config.keepGoing, seconds: (ContinuousClock.now - start).seconds)
    }

    /// `dfs` walks one tree, so it runs on one thread until the space under its bound is exhausted.
    private func runExhaustive(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void) -> Report {
        let strategy = DFSStrategy(preemptionBound: plan.strategy.parameter ?? 2)
        let state = SharedState(goalCount: 0)
        let start = ContinuousClock.now
        var runs = 0
        var goalCounts = GoalTally()
        var lastReport = start
        let deadline = configuration.seconds.map { start.advanced(by: .milliseconds(Int64($0 * 1000))) }
        let maxRuns = configuration.seconds == nil ? Int(configuration.seeds.count) : Int.max
        while strategy.hasMore && runs < maxRuns {
            if let deadline, ContinuousClock.now >= deadline { break }
            if state.interrupted.load(ordering: .relaxed) || Interruption.isRequested { break }
            let seed = UInt64(runs)
            let result = plan.run(seed: seed, strategy: strategy)
            runs += 1
            goalCounts.count(result)
            if result.verdict.isFailure {
                state.record(seed: seed, result: result)
                if !configuration.keepGoing { break }
            }
            if ContinuousClock.now - lastReport > .milliseconds(500) {
                lastReport = ContinuousClock.now
                let (failures, distinct) = state.counts()
                progress(runs, failures, distinct, (ContinuousClock.now - start).seconds)
            }
        }
        state.runs.add(runs, ordering: .relaxed)
        state.addGoals(goalCounts.counts)
        var report = state.report(plan: plan, keepGoing: true, seconds: (ContinuousClock.now - start).seconds)
        report.exhausted = strategy.isExhausted
        report.exhaustedRounds = strategy.exhaustedRounds
        return report
    }
}

/// What the workers share: the next seed, the stop line, and the findings.
package final class SharedState: Sendable {
    package let nextIndex = Atomic<UInt64>(0)
    package let stopSeed = Atomic<UInt64>(.max)
    package let runs = Atomic<Int>(0)
    package let interrupted = Atomic<Bool>(false)
    private let findings = Mutex<[Fuzzer.Finding]>([])
    private let failures = Mutex<Int>(0)
    private let goals: Mutex<[Int]>

    package init(goalCount: Int) { goals = Mutex(Array(repeating: 0, count: goalCount)) }

    /// Lowers the stop line to `seed`. (A compare-exchange loop: `Atomic<UInt64>.min` in Swift 6.3.1
    /// on Linux returns the new minimum without storing it.)
    func lowerStopSeed(to seed: UInt64) {
        var current = stopSeed.load(ordering: .relaxed)
        while seed < current {
            let (exchanged, original) = stopSeed.compareExchange(
                expected: current, desired: seed, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    func record(seed: UInt64, result: RunResult) {
        failures.withLock { $0 += 1 }
        let signature = FailureSignature(result.verdict)
        findings.withLock { list in
            if let index = list.firstIndex(where: { $0.signature == signature }) {
                list[index].occurrences += 1
                if seed < list[index].seed {
                    list[index].seed = seed
                    list[index].verdict = result.verdict
                    list[index].tape = result.tape
                    list[index].steps = result.steps
                }
            } else {
                list.append(
                    Fuzzer.Finding(
                        signature: signature, seed: seed, verdict: result.verdict, tape: result.tape,
                        steps: result.steps, occurrences: 1))
            }
        }
    }

    func counts() -> (Int, Int) {
        (failures.withLock { $0 }, findings.withLock { $0.count })
    }

    func addGoals(_ counts: [Int]) {
        goals.withLock { totals in
            if totals.count < counts.count { totals += Array(repeating: 0, count: counts.count - totals.count) }
            for index in counts.indices { totals[index] += counts[index] }
        }
    }

    func report(plan: RunPlan, keepGoing: Bool, seconds: Double) -> Fuzzer.Report {
        var list = findings.withLock { $0 }.sorted { $0.seed < $1.seed }
        var failureCount = failures.withLock { $0 }
        if !keepGoing, let first = list.first {
            // Workers may have run seeds past the first failure before they saw the stop line.
            list = [first]
            failureCount = max(1, min(failureCount, first.occurrences))
        }
        let goalNames = plan.goals()
        var totals = goals.withLock { $0 }
        if totals.count < goalNames.count { totals += Array(repeating: 0, count: goalNames.count - totals.count) }
        return Fuzzer.Report(
            schedules: runs.load(ordering: .relaxed), failures: failureCount, findings: list, goals: goalNames,
            goalCounts: Array(totals.prefix(goalNames.count)), seconds: seconds, exhausted: false)
    }
}

extension Duration {
    /// This duration in seconds, as a Double (for rates and progress).
    package var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// How many runs reached each coverage goal, by position in declaration order. Grows when a run
/// declares more goals than the first did (`reach` of an undeclared goal adds one as it runs).
package struct GoalTally {
    private(set) var counts: [Int] = []

    package mutating func count(_ result: RunResult) {
        if counts.count < result.goals.count {
            counts += Array(repeating: 0, count: result.goals.count - counts.count)
        }
        for goal in result.reachedGoals {
            if let position = result.goals.firstIndex(of: goal) { counts[position] += 1 }
        }
    }
}
