import SimCapture
import SimCore
import SimEngine
import SimTrace
import Testing

/// What one `explore` or `simulate` call ran and, when a schedule failed, where its shrunk trace is.
public struct Exploration: Sendable {
    /// A failure found by `explore`: its verdict, the seed that found it, and its saved trace.
    public struct Failure: Sendable {
        /// The verdict of the shrunk schedule (the same oracle as the one found).
        public var verdict: Verdict
        /// The first seed whose schedule failed.
        public var seed: UInt64
        /// Absolute path of the saved (shrunk, when shrinking succeeded) trace.
        public var tracePath: String
        /// Decisions in the schedule as found and as saved (equal when it could not be shrunk).
        public var decisions: (found: Int, saved: Int)
        /// The command line that reruns this schedule: `simrun replay TRACE` for `explore`, and for
        /// `simulate` the test run with `SIMRUN_SEED` set.
        public var replayCommand: String
    }

    /// A `sometimes` goal of the scenario and how many schedules reached it.
    public struct Goal: Sendable, Equatable {
        /// The goal's name.
        public var name: String
        /// Schedules that reached it.
        public var runs: Int
    }

    /// Schedules run.
    public var schedules: Int
    /// The first failure (lowest seed), or nil when every schedule passed.
    public var failure: Failure?
    /// True when the strategy ran out of schedules (dfs) before the seeds or time did.
    public var exhausted: Bool
    /// How this process put the runs' Swift concurrency under the scheduler: `executor-factory` in a
    /// `swift test` process where simrun's load-time constructor installed its executors first.
    public var route: CaptureRoute
    /// Why the executor factory was not in force (opted out, or the process could not install it
    /// first), or nil when it was.
    public var routeNote: String?
    /// The scenario's `sometimes` goals, in declaration order, with the schedules that reached each.
    public var goals: [Goal] = []
    /// Distinct schedules among ``schedules`` (runs that made the same decisions ran the same
    /// schedule): exact unless ``distinctSchedulesIsLowerBound``.
    public var distinctSchedules = 0
    /// More distinct schedules ran than simrun counts exactly: ``distinctSchedules`` is a lower bound.
    public var distinctSchedulesIsLowerBound = false
    /// What the runs saw but did not control: one example per kind (the lowest seed's), with how many
    /// times that kind was seen over every run as its `count`.
    public var uncontrolled: [Uncontrolled] = []
    /// What a pass must still say (every schedule the same, or work simrun did not control): also
    /// recorded as a warning issue; nil when there is nothing to say.
    public var explorationNote: String?
}

/// Explores `scenario` from a test: runs `seeds` (or, given `seconds`, as many seeds as fit that
/// wall-clock budget) under `strategy` on `variant`, and on the first failure shrinks it, saves the
/// trace under `failureDirectory`, attaches it to the test and records one `Issue` with the verdict
/// line, the trace's path and the `replay` command that reproduces it.
///
/// `Scenario.async` scenarios with `@MainActor` code, `Task {}`, actors and sleeps run here, in this
/// process, when simrun's executors were installed at load time (``Exploration/route``); where the
/// process could not install them first, such a scenario is one issue that says why.
///
/// Every schedule runs in this process: a model that traps ends the test run. Pass your
/// `SimRun.main` executable to `explore(_:variant:strategy:seeds:seconds:jobs:failureDirectory:isolatedIn:sourceLocation:)`
/// to run each schedule in a child of it instead, where a trap is a crash issue with its trace.
///
/// - Parameters:
///   - scenario: the scenario to run.
///   - variant: the variant to run (default: the scenario's first).
///   - strategy: a strategy as the command line spells it (`fifo`, `random`, `pct:depth=3`, `dfs`, …).
///   - seeds: the seeds to run; a seed's schedule depends only on it and the strategy.
///   - seconds: run for this many wall-clock seconds instead, from `seeds.lowerBound` on.
///   - jobs: threads running schedules; the first failure found does not depend on it.
///   - failureDirectory: where the failing trace is saved (relative to the current directory, which is
///     the package root under `swift test`).
///   - programName: the executable that knows `scenario`, for the printed replay command (`simrun`
///     for the built-in scenarios, your own `SimRun.main` executable for yours).
///   - carriers: where the runs' jobs run: `.off` (one thread), or `.preemptLocks` (`--preempt`:
///     lock operations inside synchronous code become scheduling points; see SimCore's
///     CarriersAndPreemption article). Recorded in the saved trace.
///   - sourceLocation: where the issue is reported (the caller, by default).
/// - Returns: what ran; the test has already failed when `failure` is set.
@discardableResult
public func explore(
    _ scenario: Scenario, variant: String? = nil, strategy: String = "pct", seeds: Range<UInt64> = 0..<1_000,
    seconds: Double? = nil, jobs: Int = 1, failureDirectory: String = "simrun-failures",
    programName: String = "simrun", carriers: CarrierMode = .off, sourceLocation: SourceLocation = #_sourceLocation
) -> Exploration {
    guard let spec = StrategySpec(parsing: strategy) else {
        Issue.record("unknown strategy '\(strategy)' (known: \(StrategySpec.names))", sourceLocation: sourceLocation)
        return ExplorationRun.empty
    }
    var run = ExplorationRun(
        scenario: scenario, variant: variant, strategy: spec, seeds: seeds, seconds: seconds, jobs: jobs,
        failureDirectory: failureDirectory,
        rerun: { path, _ in "\(programName) replay \(shellQuoted(path))" },
        refusalHint: "explore it with `\(programName) fuzz \(scenario.name)`")
    run.carriers = carriers
    // The campaign runs on a thread of its own, outside the test's task: its runs then never nest in
    // the test's job, and need no thread each.
    return onJoinedThread(run.perform).report(sourceLocation: sourceLocation)
}

/// ``explore(_:variant:strategy:seeds:seconds:jobs:failureDirectory:programName:carriers:sourceLocation:)``
/// with a typed strategy (`.pct(depth: 3)`, `.random`, `.dfs(preemptions: 2)`, …).
@discardableResult
public func explore(
    _ scenario: Scenario, variant: String? = nil, strategy: SimulationStrategy, seeds: Range<UInt64> = 0..<1_000,
    seconds: Double? = nil, jobs: Int = 1, failureDirectory: String = "simrun-failures",
    programName: String = "simrun", carriers: CarrierMode = .off, sourceLocation: SourceLocation = #_sourceLocation
) -> Exploration {
    explore(
        scenario, variant: variant, strategy: strategy.description, seeds: seeds, seconds: seconds, jobs: jobs,
        failureDirectory: failureDirectory, programName: programName, carriers: carriers,
        sourceLocation: sourceLocation)
}

/// One exploration, computed apart from the test (on any thread), then reported in the test's task:
/// `explore` and `simulate` share it, so both give the same verdicts, traces and issues.
struct ExplorationRun: Sendable {
    let scenario: Scenario
    let variant: String?
    let strategy: StrategySpec
    let seeds: Range<UInt64>
    let seconds: Double?
    let jobs: Int
    let failureDirectory: String
    /// The command line that reruns a failing schedule, from the saved trace's path and the seed.
    let rerun: @Sendable (_ tracePath: String, _ seed: UInt64) -> String
    /// What to do instead when this process cannot run the scenario.
    let refusalHint: String
    /// Where the runs' jobs run (`--preempt`: `.preemptLocks`).
    var carriers: CarrierMode = .off
    /// Where the user's code runs: this process, or children of the user's `SimRun.main` executable.
    var isolation: Isolation = .inProcess

    static var empty: Exploration {
        Exploration(
            schedules: 0, failure: nil, exhausted: false, route: ExecutorCapture.route,
            routeNote: ExecutorCapture.routeNote)
    }

    /// What an exploration found, and the issues and attachment it owes the test.
    struct Outcome: Sendable {
        var exploration: Exploration
        var issues: [String] = []
        /// What the test must be told without failing it: what the pass did not explore.
        var warnings: [String] = []
        var attachment: String?

        /// Records the issues and the trace in the current test; returns the exploration.
        func report(sourceLocation: SourceLocation) -> Exploration {
            if let attachment { attach(attachment, sourceLocation: sourceLocation) }
            for issue in issues { Issue.record(Comment(rawValue: issue), sourceLocation: sourceLocation) }
            for warning in warnings { recordWarning(warning, sourceLocation: sourceLocation) }
            return exploration
        }
    }

    /// Runs the campaign, and on a failure shrinks, saves and checks the trace. Touches no test state.
    func perform() -> Outcome {
        var outcome = Outcome(exploration: Self.empty)
        let chosen = variant ?? scenario.defaultVariant
        guard scenario.hasVariant(chosen) else {
            let names = scenario.variants.map(\.name).joined(separator: ", ")
            outcome.issues.append("scenario '\(scenario.name)' has no variant '\(chosen)' (variants: \(names))")
            return outcome
        }
        if isolation.launcher == nil, let reason = TraceCorpus.cannotRunHere(scenario, variant: chosen) {
            outcome.issues.append("\(reason): \(refusalHint)")
            return outcome
        }
        // The engine plans the campaign (its fifo run: in a child with a launcher, where a trap is
        // the finding), runs the seeds and saves, shrinks and re-checks the failure, exactly as
        // `simrun fuzz` does; this only turns its result into the test's issue.
        let directory = absolute(failureDirectory)
        let unplanned = RunPlan.Descriptor(
            scenario: scenario.name, variant: chosen, strategy: strategy, estimatedSteps: 1, noise: 0,
            carriers: carriers)
        let result: FindingCampaign.Result
        do throws(SimEngineError) {
            switch try isolation.plan(unplanned, in: ScenarioCatalog([scenario])) {
            case .planned(let plan):
                let campaign = FindingCampaign(
                    plan: plan, configuration: .init(seeds: seeds, seconds: seconds, jobs: jobs),
                    options: .init(directory: directory, isolation: isolation))
                result = try campaign.run()
            case .trapped:
                let crash = try FindingCampaign.fifoCrash(
                    plan: unplanned, directory: directory, launcher: try isolation.launcher(for: "recording the crash"))
                return issue(for: crash, of: chosen, outcome: outcome)
            }
        } catch {
            outcome.issues.append("explored \(scenario.name)/\(chosen)\(place) and could not run: \(error.message)")
            return outcome
        }
        let report = result.report
        outcome.exploration.schedules = report.schedules
        outcome.exploration.exhausted = report.exhausted
        outcome.exploration.route = ExecutorCapture.route
        outcome.exploration.routeNote = ExecutorCapture.routeNote
        outcome.exploration.goals = zip(report.goals, report.goalCounts).map { Exploration.Goal(name: $0, runs: $1) }
        let explored = report.explored
        outcome.exploration.distinctSchedules = explored.distinct
        outcome.exploration.distinctSchedulesIsLowerBound = explored.isLowerBound
        outcome.exploration.uncontrolled = explored.uncontrolled.map {
            Uncontrolled(kind: $0.kind, detail: $0.example.detail, site: $0.example.site, count: $0.occurrences)
        }
        outcome.exploration.explorationNote = explored.note
        if let note = explored.note, result.findings.isEmpty {
            // Not a failure: the test is told what its pass did not cover (a warning where Swift
            // Testing has issue severities).
            let lines = ["\(scenario.name)/\(chosen) (strategy \(strategy)): \(note)", "  explored: \(explored.figure)"]
                + explored.uncontrolledLines.map { "  not controlled: \($0)" }
            outcome.warnings.append(lines.joined(separator: "\n"))
        }
        if report.schedules == 0 {
            outcome.issues.append("explored \(scenario.name)/\(chosen) and ran no schedule (seeds \(seeds))")
            return outcome
        }
        // Locks taken in both orders are a finding of their own, deadlocked run or not (`--preempt`).
        for potential in result.potentialDeadlocks where result.findings.first(where: { $0.kind == .failure }) == nil {
            outcome.issues.append(
                "\(scenario.name)/\(chosen): potential deadlock: \(potential.description)"
                    + (potential.traces.isEmpty ? "" : "; traces: " + potential.traces.joined(separator: ", ")))
        }
        // Without keepGoing the campaign keeps the failure with the lowest seed only; in children a
        // trap is a crash finding like any failure.
        let failures = result.findings.filter { $0.kind == .failure || $0.kind == .crash }
        guard let finding = failures.min(by: { $0.seed < $1.seed }) else { return outcome }
        return issue(for: finding, of: chosen, outcome: outcome)
    }

    /// " in <executable>" when the runs are a launcher's children, for the issues.
    private var place: String { isolation.launcher?.executable.map { " in \($0)" } ?? "" }

    /// The issue (and attachment) of the failure `finding` of `chosen`.
    private func issue(for finding: SavedFinding, of chosen: String, outcome found: Outcome) -> Outcome {
        var outcome = found
        guard let path = finding.path else {
            outcome.issues.append(
                "\(scenario.name)/\(chosen) failed at seed \(finding.seed): \(finding.foundVerdict); "
                    + "the trace could not be saved: \(finding.problem?.message ?? "no reason given")")
            return outcome
        }
        outcome.attachment = path
        if case .differed(let divergence, _)? = finding.replay {
            outcome.issues.append(
                "\(scenario.name)/\(chosen) failed at seed \(finding.seed): \(finding.foundVerdict); "
                    + "\(path) does not replay identically (is the scenario deterministic?):\n"
                    + divergence.joined(separator: "\n"))
            return outcome
        }
        if let problem = finding.problem {
            outcome.issues.append(
                "\(scenario.name)/\(chosen) failed at seed \(finding.seed): \(finding.foundVerdict); "
                    + "the trace \(path) is saved as found: \(problem.message)")
            return outcome
        }
        let failure = Exploration.Failure(
            verdict: finding.verdict, seed: finding.seed, tracePath: path, decisions: finding.decisions,
            replayCommand: rerun(path, finding.seed))
        outcome.exploration.failure = failure
        let children = isolation.launcher?.executable.map { ", each schedule in a child of \($0)" } ?? ""
        var lines = [
            "\(scenario.name)/\(chosen) failed at seed \(finding.seed) (strategy \(strategy)\(children)): \(failure.verdict)",
            "  trace:  \(failure.tracePath) (\(Self.shrinkNote(finding)))",
            "  replay: \(failure.replayCommand)",
        ]
        // A crash inside a system library (Foundation, libdispatch) says so: the program is its caller.
        if finding.kind == .crash, let frames = (try? TraceInput(path: path))?.footer?.trapFrames,
            let library = CrashPlace.libraryLine(frames)
        {
            lines.insert("  \(library)", at: 1)
        }
        if let hint = scenario.fixHintLine(for: chosen, replayCommand: failure.replayCommand) {
            lines.append(hint)
        }
        outcome.issues.append(lines.joined(separator: "\n"))
        return outcome
    }
}

extension ExplorationRun {
    /// How the saved schedule compares with the one found, as the CLI's shrink line says it: the
    /// departures from fifo first (what shrinking reduces), the fifo picks apart, since a schedule
    /// with fewer departures can take more fifo picks to its end — a total alone reads as growth.
    static func shrinkNote(_ finding: SavedFinding) -> String {
        guard case .shrunk(let report)? = finding.shrink else {
            return "\(finding.decisions.saved) decisions, saved as found"
        }
        let fifo = (
            before: report.before.decisions - report.before.nonFifo, after: report.after.decisions - report.after.nonFifo
        )
        return "shrunk: non-fifo decisions \(report.before.nonFifo) → \(report.after.nonFifo), "
            + "fifo decisions \(fifo.before) → \(fifo.after)"
    }
}

/// Records `text` as a warning issue of the current test: seen in the test's results, failing nothing.
/// Swift Testing has issue severities from Swift 6.3; with an older toolchain the text goes to
/// stderr, where the test run's output shows it.
func recordWarning(_ text: String, sourceLocation: SourceLocation) {
    #if compiler(>=6.3)
        Issue.record(Comment(rawValue: text), severity: .warning, sourceLocation: sourceLocation)
    #else
        fputs("simrun warning: \(text)\n", stderr)
    #endif
}

/// Attaches the trace file to the current test (Swift Testing keeps it with the test's results when
/// run with attachments enabled, e.g. `swift test --attachments-path DIR`).
func attach(_ path: String, sourceLocation: SourceLocation) {
    guard let bytes = readBytes(path) else {
        Issue.record("cannot read \(path) to attach it", sourceLocation: sourceLocation)
        return
    }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    Attachment.record(bytes, named: name, sourceLocation: sourceLocation)
}

/// The whole file, or nil when it cannot be read.
private func readBytes(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count > 0 { bytes += buffer[0..<count] }
        if count < buffer.count { return ferror(file) == 0 ? bytes : nil }
    }
}

/// `path` made absolute against the current directory, so the printed command works from anywhere.
func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    guard let cwd = getcwd(nil, 0) else { return path }
    defer { free(cwd) }
    return String(cString: cwd) + "/" + path
}
