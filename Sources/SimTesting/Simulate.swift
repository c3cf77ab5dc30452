import SimCapture
import SimCore
import SimEngine
import Synchronization
import Testing

/// How a simulation orders the jobs of each schedule: a typed strategy for
/// ``simulate(_:seeds:seed:strategy:limits:jobs:failureDirectory:watchdog:sourceLocation:_:)``.
public struct SimulationStrategy: Sendable, Hashable, CustomStringConvertible {
    /// The strategy as simrun's command line and traces name it.
    public let spec: StrategySpec

    /// PCT: `depth - 1` priority change points spread over a run; finds bugs of small depth with a
    /// known probability. The default.
    public static func pct(depth: Int = 3) -> SimulationStrategy { .init(spec: .init(kind: .pct, parameter: depth)) }
    /// A uniformly random ready job at every step.
    public static let random = SimulationStrategy(spec: .init(kind: .random))
    /// Partial-order sampling: random priorities, re-drawn for racing jobs.
    public static let pos = SimulationStrategy(spec: .init(kind: .pos))
    /// Jobs in the order they were posted: one schedule, whatever the seed.
    public static let fifo = SimulationStrategy(spec: .init(kind: .fifo))
    /// At most `delays` deviations from fifo order per schedule.
    public static func delayBounded(delays: Int = 2) -> SimulationStrategy {
        .init(spec: .init(kind: .delay, parameter: delays))
    }
    /// Every schedule with at most `preemptions` preemptions, depth first, until the space is exhausted.
    public static func dfs(preemptions: Int = 2) -> SimulationStrategy {
        .init(spec: .init(kind: .dfs, parameter: preemptions))
    }
    /// A mix of strategies, one per seed.
    public static let portfolio = SimulationStrategy(spec: .init(kind: .portfolio))

    /// The command-line spelling (`pct:depth=3`).
    public var description: String { spec.description }
}

/// Runs the test's own async code under simrun's scheduler, once per seed, as a test reads:
///
/// ```swift
/// @Test func theLatestSelectionWins() async {
///     await simulate(seeds: 0..<500) { @MainActor sim in
///         let model = ProfileModel(service: ProfileService(), dropsStaleLoads: true)
///         model.select(1)
///         model.select(2)
///         await sim.settle()
///         sim.check("shows-the-latest-selection", model.shown?.id == 2, "shows \(String(describing: model.shown))")
///     }
/// }
/// ```
///
/// The body is one scenario: `@MainActor` code, `Task {}`, actors and `Task.sleep` (on virtual time)
/// run in an order each seed chooses, in this process, while other tests run in parallel. The first
/// failing seed (a failed `Simulation.check(_:_:_:)`, an escape, a deadlock, a limit) is
/// shrunk, saved under `failureDirectory`, attached to the test, and becomes one `Issue` at the
/// caller naming the oracle, the seed, the trace and how to rerun exactly that schedule: pass
/// `seed:` here, or set `SIMRUN_SEED` for the test run. A `sometimes` goal the body declares and no
/// schedule of a campaign (more than one seed) reached is an issue too.
///
/// The runs happen on a thread of their own, off the test's task; `watchdog` bounds the wait (a job
/// that blocks its thread forever is reported, never waited for).
///
/// - Parameters:
///   - name: the scenario's name in the trace and its file name (default: the test function's).
///   - seeds: the seeds to run, lowest first; the first failure found is the lowest failing seed.
///   - seed: run only this seed (overrides `seeds`); the issue of a failure gives it.
///   - strategy: how schedules are chosen.
///   - limits: steps and virtual time after which a schedule ends with a limit verdict.
///   - jobs: threads running schedules; the first failure does not depend on it.
///   - failureDirectory: where a failing trace is saved (relative to the current directory).
///   - watchdog: the longest real time to wait for the runs.
///   - sourceLocation: where issues are reported (the caller).
///   - body: the scenario: the test's code, given the run's `Simulation`.
/// - Returns: what ran; the test has already failed when ``Exploration/failure`` is set.
@discardableResult
public func simulate(
    _ name: String = #function, seeds: Range<UInt64> = 0..<500, seed: UInt64? = nil,
    strategy: SimulationStrategy = .pct(), limits: RunLimits = .standard, jobs: Int = 1,
    failureDirectory: String = "simrun-failures", watchdog: Duration = .seconds(600),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (_ sim: Simulation) async -> Void
) async -> Exploration {
    let scenarioName = scenarioSlug(name)
    let chosen: Range<UInt64>
    if let seed {
        chosen = seed..<(seed &+ 1)
    } else if let fromEnvironment = getenv("SIMRUN_SEED").map({ String(cString: $0) }) {
        guard let value = UInt64(fromEnvironment) else {
            Issue.record(
                "SIMRUN_SEED=\(fromEnvironment) is not a seed (a whole number)", sourceLocation: sourceLocation)
            return ExplorationRun.empty
        }
        chosen = value..<(value &+ 1)
    } else {
        chosen = seeds
    }
    let scenario = Scenario.async(
        name: scenarioName, summary: "the body of \(name)", variants: [.init("body", "the test's code")],
        limits: limits
    ) { simulation, _ in await body(simulation) }
    let run = ExplorationRun(
        scenario: scenario, variant: nil, strategy: strategy.spec, seeds: chosen, seconds: nil, jobs: jobs,
        failureDirectory: failureDirectory,
        rerun: { _, seed in
            let filter = shellQuoted(testFilter(name))
            return "SIMRUN_SEED=\(seed) swift test --filter \(filter) (or pass seed: \(seed) to simulate)"
        },
        refusalHint: "run it from an executable built on SimRun.main")
    guard var outcome = await offTheTestsThread(watchdog: watchdog, run.perform) else {
        Issue.record(
            Comment(
                rawValue: "\(scenarioName): the runs did not finish within \(watchdog) (a job blocked its thread?); "
                    + "not waiting longer"), sourceLocation: sourceLocation)
        return ExplorationRun.empty
    }
    // A rerun of one seed is not a campaign: its goals say nothing about coverage.
    if outcome.exploration.failure == nil && outcome.issues.isEmpty && chosen.count > 1 {
        for goal in outcome.exploration.goals where goal.runs == 0 {
            outcome.issues.append(
                "\(scenarioName): sometimes \"\(goal.name)\" was reached in none of \(outcome.exploration.schedules) "
                    + "schedules (strategy \(strategy)): the schedules may not cover what the test means to check")
        }
    }
    return outcome.report(sourceLocation: sourceLocation)
}

/// A scenario name from a test function's name: `theLatestSelectionWins()` → `theLatestSelectionWins`.
private func scenarioSlug(_ name: String) -> String {
    let base = name.split(separator: "(").first.map(String.init) ?? name
    let slug = fileNameSlug(base)
    return slug.isEmpty ? "simulation" : slug
}

/// What `swift test --filter` takes to run the test `function` (its name, without the arguments).
private func testFilter(_ function: String) -> String {
    function.split(separator: "(").first.map(String.init) ?? function
}

/// Runs `work` on a plain thread of its own (no task: the runs bind that thread to their
/// simulations) and waits without holding one of the test runner's threads. Nil when `watchdog`
/// passes first: the thread is left to finish on its own and nothing waits for it.
func offTheTestsThread<T: Sendable>(watchdog: Duration, _ work: @escaping @Sendable () -> T) async -> T? {
    let state = Rendezvous()
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let resume: @Sendable (T?) -> Void = { value in
            if state.claim() { continuation.resume(returning: value) }
        }
        startDetachedThread {
            let value = work()
            state.finished.store(true, ordering: .releasing)
            resume(value)
        }
        startDetachedThread {
            let deadline = ContinuousClock.now.advanced(by: watchdog)
            while !state.finished.load(ordering: .acquiring) {
                if ContinuousClock.now >= deadline { return resume(nil) }
                usleep(20_000)
            }
        }
    }
}

/// The work's thread and the watchdog's: whichever comes first resumes the waiting test.
private final class Rendezvous: Sendable {
    let finished = Atomic<Bool>(false)
    private let resumed = Atomic<Bool>(false)
    /// True for the first caller only.
    func claim() -> Bool { !resumed.exchange(true, ordering: .acquiringAndReleasing) }
}

/// Runs `body` on a new thread and waits for it (no task: a run binds that thread to its simulation).
func onJoinedThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let result = ResultSlot<T>()
    let joined = PlainThread.join { result.value.withLock { $0 = body() } }
    precondition(joined, "cannot start a thread for the exploration")
    return result.value.withLock { $0! }
}

private final class ResultSlot<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}

/// Starts `body` on a new detached thread.
private func startDetachedThread(_ body: @escaping @Sendable () -> Void) {
    precondition(PlainThread.detach(body), "cannot start a thread for the simulation")
}
