import SimCore
import SimEngine
import SimTrace
import Testing

/// Explores `scenario` with every schedule run in a child process of `executable`, a binary built on
/// `SimRun.main(scenarios:)` that knows the scenario (your package's simrun executable): the test
/// process runs none of your code, so a schedule that traps is a CRASH failure with its trace — never
/// the end of `swift test`. It runs `executable fuzz` (worker processes, shrinking and re-checking in
/// children, as on the command line) and turns its `--json` result into the test's issue.
///
/// ``explore(_:variant:strategy:seeds:seconds:jobs:failureDirectory:programName:carriers:sourceLocation:)-(_,_,String,_,_,_,_,_,_,_)``
/// runs schedules in the test process instead (a `swift test` process cannot re-run itself as
/// simrun): there a trap ends the test run. This form has no `carriers:` yet: its runs use one
/// thread (no `--preempt`).
///
/// - Parameters:
///   - scenario: the scenario, as `executable` knows it (by name).
///   - variant: the variant to run (default: the scenario's first).
///   - strategy: a strategy as the command line spells it (`fifo`, `random`, `pct:depth=3`, …).
///   - seeds: the seeds to run (ignored when `seconds` is given).
///   - seconds: run for this many wall-clock seconds instead, from seed 0 (`fuzz --time`).
///   - jobs: worker processes running schedules.
///   - failureDirectory: where the failing trace is saved (relative to the current directory).
///   - executable: path of the `SimRun.main` binary (for instance `.build/debug/my-simrun`).
///   - sourceLocation: where the issue is reported (the caller, by default).
/// - Returns: what ran; the test has already failed when `failure` is set. ``Exploration/goals`` holds
///   the goals the campaign reports, and ``Exploration/Failure/decisions`` the saved trace's decision
///   count twice (the campaign's JSON does not carry the count as found).
@discardableResult
public func explore(
    _ scenario: Scenario, variant: String? = nil, strategy: String = "pct", seeds: Range<UInt64> = 0..<1_000,
    seconds: Double? = nil, jobs: Int = 1, failureDirectory: String = "simrun-failures",
    isolatedIn executable: String, sourceLocation: SourceLocation = #_sourceLocation
) -> Exploration {
    let outcome = onJoinedThread {
        IsolatedExploration(
            scenario: scenario, variant: variant ?? scenario.defaultVariant, strategy: strategy, seeds: seeds,
            seconds: seconds, jobs: jobs, failureDirectory: failureDirectory, executable: executable
        ).perform()
    }
    return outcome.report(sourceLocation: sourceLocation)
}

/// One `explore(isolatedIn:)`: the `fuzz` child run and its result read back.
struct IsolatedExploration: Sendable {
    let scenario: Scenario
    let variant: String
    let strategy: String
    let seeds: Range<UInt64>
    let seconds: Double?
    let jobs: Int
    let failureDirectory: String
    let executable: String

    var arguments: [String] {
        var arguments = ["fuzz", scenario.name, "--variant", variant, "--strategy", strategy]
        arguments += ["--jobs", String(max(1, jobs))]
        // `fuzz --time` takes seeds from 0: the seeds' range applies to a run without `seconds`.
        arguments += seconds.map { ["--time", "\($0)s"] } ?? ["--seeds", "\(seeds.lowerBound)..<\(seeds.upperBound)"]
        return arguments + ["--out", absolute(failureDirectory), "--no-show", "--json"]
    }

    func perform() -> ExplorationRun.Outcome {
        var outcome = ExplorationRun.Outcome(exploration: ExplorationRun.empty)
        let title = "\(scenario.name)/\(variant)"
        let output: ChildProcess.Output
        do {
            output = try ChildProcess.collect(arguments, executable: executable, timeoutSeconds: 24 * 3_600)
        } catch {
            outcome.issues.append("explored \(title) in \(executable) and could not start it: \(error.message)")
            return outcome
        }
        let document = output.stdout.split(separator: "\n").last.flatMap { try? JSONValue(parsing: String($0)) }
        // `fuzz` judged the campaign (0 pass, 1 found something): anything else is no verdict.
        guard let document, output.termination == .exited(0) || output.termination == .exited(1),
            let schedules = document["schedules"]?.intValue
        else {
            let why = output.stderr.split(separator: "\n").last.map(String.init) ?? "no output"
            outcome.issues.append(
                "explored \(title) in \(executable) and got no verdict (\(output.termination)): \(why)")
            return outcome
        }
        outcome.exploration.schedules = schedules
        outcome.exploration.goals = (document["sometimes"]?.arrayValue ?? []).compactMap { goal in
            guard let name = goal["goal"]?.stringValue, let runs = goal["runs"]?.intValue else { return nil }
            return Exploration.Goal(name: name, runs: runs)
        }
        if schedules == 0 {
            outcome.issues.append("explored \(title) and ran no schedule (seeds \(seeds))")
            return outcome
        }
        let findings = document["findings"]?.arrayValue ?? []
        guard output.termination == .exited(1) else { return outcome }
        // The lowest seed's finding, as the in-process explore reports.
        guard
            let finding = findings.min(by: { ($0["seed"]?.unsignedValue ?? .max) < ($1["seed"]?.unsignedValue ?? .max) }
            ),
            let seed = finding["seed"]?.unsignedValue, let oracle = finding["oracle"]?.stringValue,
            let message = finding["message"]?.stringValue
        else {
            outcome.issues.append("explored \(title): fuzz found a failure (exit 1) but named none: \(output.stdout)")
            return outcome
        }
        let verdict = Self.verdict(oracle: oracle, message: message)
        guard let path = finding["trace"]?.stringValue else {
            outcome.issues.append("\(title) failed at seed \(seed): \(verdict); the trace could not be saved")
            return outcome
        }
        let decisions = (try? TraceInput(path: path).tape.count) ?? 0
        let replay = "\(executable) replay \(shellQuoted(path))"
        outcome.attachment = path
        outcome.exploration.failure = Exploration.Failure(
            verdict: verdict, seed: seed, tracePath: path, decisions: (decisions, decisions), replayCommand: replay)
        outcome.issues.append(
            [
                "\(title) failed at seed \(seed) (strategy \(strategy), each schedule in a child of \(executable)): \(verdict)",
                "  trace:  \(path)", "  replay: \(replay)",
            ].joined(separator: "\n"))
        return outcome
    }

    /// The finding's verdict from its JSON oracle and message.
    static func verdict(oracle: String, message: String) -> Verdict {
        let code: UInt8 =
            switch oracle {
            case "crashed": 5
            case "deadlock": 6
            case "step-limit": 2
            case "time-limit": 3
            case "pending-work": 4
            default: 1
            }
        return Verdict(code: code, oracle: oracle, message: message) ?? .fail(oracle: oracle, message: message)
    }
}
