import SimCore
import SimEngine
import Testing

/// Explores `scenario` with every run of its code in a child process of `executable`, a binary built
/// on `SimRun.main(scenarios:)` that knows the scenario (your package's simrun executable): the
/// test process runs none of your code, so a schedule that traps is a CRASH failure with its trace
/// — never the end of `swift test`. It is the engine's `FindingCampaign` with a launcher of that
/// executable, as `simrun fuzz` runs it: the campaign planned in a child, seeds in worker
/// processes, each failure recorded, shrunk and re-checked in children; the verdict is the engine's.
///
/// ``explore(_:variant:strategy:seeds:seconds:jobs:failureDirectory:programName:carriers:sourceLocation:)-(_,_,String,_,_,_,_,_,_,_)``
/// runs schedules in the test process instead (a `swift test` process cannot re-run itself as
/// simrun): there a trap ends the test run.
///
/// - Parameters:
///   - scenario: the scenario, as `executable` knows it (by name).
///   - variant: the variant to run (default: the scenario's first).
///   - strategy: a strategy as the command line spells it (`fifo`, `random`, `pct:depth=3`, …).
///   - seeds: the seeds to run (from `seeds.lowerBound` when `seconds` is given).
///   - seconds: run for this many wall-clock seconds instead (`fuzz --time`).
///   - jobs: worker processes running schedules.
///   - failureDirectory: where the failing trace is saved (relative to the current directory).
///   - executable: path of the `SimRun.main` binary (for instance `.build/debug/my-simrun`).
///   - carriers: where the runs' jobs run: `.off` (one thread), or `.preemptLocks` (`--preempt`).
///   - sourceLocation: where the issue is reported (the caller, by default).
/// - Returns: what ran; the test has already failed when `failure` is set.
@discardableResult
public func explore(
    _ scenario: Scenario, variant: String? = nil, strategy: String = "pct", seeds: Range<UInt64> = 0..<1_000,
    seconds: Double? = nil, jobs: Int = 1, failureDirectory: String = "simrun-failures",
    isolatedIn executable: String, carriers: CarrierMode = .off, sourceLocation: SourceLocation = #_sourceLocation
) -> Exploration {
    guard let spec = StrategySpec(parsing: strategy) else {
        Issue.record("unknown strategy '\(strategy)' (known: \(StrategySpec.names))", sourceLocation: sourceLocation)
        return ExplorationRun.empty
    }
    return explore(
        scenario, variant: variant, strategy: SimulationStrategy(spec: spec), seeds: seeds, seconds: seconds, jobs: jobs,
        failureDirectory: failureDirectory, isolatedIn: executable, carriers: carriers, sourceLocation: sourceLocation)
}

/// ``explore(_:variant:strategy:seeds:seconds:jobs:failureDirectory:isolatedIn:carriers:sourceLocation:)-(_,_,String,_,_,_,_,_,_,_)``
/// with a typed strategy (`.pct(depth: 3)`, `.random`, `.dfs(preemptions: 2)`, …).
@discardableResult
public func explore(
    _ scenario: Scenario, variant: String? = nil, strategy: SimulationStrategy, seeds: Range<UInt64> = 0..<1_000,
    seconds: Double? = nil, jobs: Int = 1, failureDirectory: String = "simrun-failures",
    isolatedIn executable: String, carriers: CarrierMode = .off, sourceLocation: SourceLocation = #_sourceLocation
) -> Exploration {
    var run = ExplorationRun(
        scenario: scenario, variant: variant, strategy: strategy.spec, seeds: seeds, seconds: seconds, jobs: jobs,
        failureDirectory: failureDirectory,
        rerun: { path, _ in "\(executable) replay \(shellQuoted(path))" },
        refusalHint: "explore it with `\(executable) fuzz \(scenario.name)`")
    run.carriers = carriers
    run.isolation = .processes(ProcessLauncher(executable: executable))
    return onJoinedThread(run.perform).report(sourceLocation: sourceLocation)
}
