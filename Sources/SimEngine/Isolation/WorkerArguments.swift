import SimCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a fuzz worker process is told on its command line (`simrun _worker …`), and what it does
/// with it: the supervisor writes `commandLine`, the hidden `_worker` command parses the same options
/// back and calls `run`. Nothing of the campaign logic is here: `run` drives `CampaignWorker` on the
/// board it finds on descriptor 3.
package struct WorkerArguments: Sendable, Equatable {
    package var scenario: String
    package var variant: String
    package var strategy: String
    package var worker: Int
    package var workers: Int
    package var goals: Int
    package var space: SeedSpace
    package var estimatedSteps: Int?
    package var keepGoing: Bool
    /// Stop after this many milliseconds (a `--time` campaign).
    package var milliseconds: Int64?
    /// The rest of a chunk whose worker died, run before claiming new chunks.
    package var resume: Range<UInt64>?
    /// A trace whose first `keep` decisions every run follows (`fuzz --from`).
    package var from: String?
    package var keep: Int
    /// Noise lanes added to every run (the plan's `--noise`).
    package var noise: Int
    /// Where each run's jobs run (the plan's `--preempt`).
    package var carriers: CarrierMode = .off

    package init(
        scenario: String, variant: String, strategy: String, worker: Int, workers: Int, goals: Int, space: SeedSpace,
        estimatedSteps: Int?, keepGoing: Bool, milliseconds: Int64?, resume: Range<UInt64>?, from: String?, keep: Int,
        noise: Int = 0
    ) {
        self.scenario = scenario
        self.variant = variant
        self.strategy = strategy
        self.worker = worker
        self.workers = workers
        self.goals = goals
        self.space = space
        self.estimatedSteps = estimatedSteps
        self.keepGoing = keepGoing
        self.milliseconds = milliseconds
        self.resume = resume
        self.from = from
        self.keep = keep
        self.noise = noise
    }

    /// The arguments after the executable, as `simrun _worker` parses them.
    package var commandLine: [String] {
        var arguments = [
            "_worker", scenario, "--variant", variant, "--strategy", strategy,
            "--worker", String(worker), "--workers", String(workers), "--goals", String(goals),
            "--lower", String(space.seeds.lowerBound),
            "--shard-index", String(space.shardIndex), "--shard-count", String(space.shardCount),
        ]
        if let estimatedSteps { arguments += ["--estimated-steps", String(estimatedSteps)] }
        if space.bounded { arguments += ["--upper", String(space.seeds.upperBound)] }
        if let milliseconds { arguments += ["--milliseconds", String(milliseconds)] }
        if let resume {
            arguments += ["--first-index", String(resume.lowerBound), "--chunk-end", String(resume.upperBound)]
        }
        if keepGoing { arguments.append("--keep-going") }
        if let from { arguments += ["--from", from, "--keep", String(keep)] }
        if noise > 0 { arguments += ["--noise", String(noise)] }
        if carriers != .off { arguments += ["--carriers", carriers.rawValue] }
        return arguments
    }

    /// Runs this worker: maps the board on `WorkerBoard.childDescriptor` and runs seeds on it until
    /// the campaign is over for it. Failures that find no free board slot are printed on `console`.
    package func run(catalog: ScenarioCatalog, console: Console) throws(CommandFailure) {
        let board = try WorkerBoard.attach(
            descriptor: WorkerBoard.childDescriptor, workers: workers, goals: goals, overflow: { console.out($0) })
        let found = try catalog.scenario(named: scenario)
        let chosen = try catalog.variant(variant, of: found)
        guard let spec = StrategySpec(parsing: strategy) else {
            throw .usage("unknown strategy '\(strategy)' (strategies: \(StrategySpec.names))")
        }
        var plan =
            estimatedSteps.map {
                RunPlan(scenario: found, variant: chosen, strategy: spec, estimatedSteps: $0, noise: noise)
            } ?? RunPlan(scenario: found, variant: chosen, strategy: spec, noise: noise)
        plan.carriers = carriers
        if let from {
            plan.prefix = SchedulePrefix(tape: try TraceInput(path: from).tape, keep: keep, source: from)
        }
        let deadline = milliseconds.map { ContinuousClock.now + .milliseconds($0) }
        // Stop when the parent is gone (a SIGKILL of `simrun fuzz` leaves no orphan running seeds).
        // Linux's `prctl(PR_SET_PDEATHSIG)` is not imported into Swift and Darwin has none, so the
        // parent id is watched instead: a system call, so only every `wantedCheckInterval` runs.
        let parent = getppid()
        CampaignWorker(plan: plan, space: space, keepGoing: keepGoing, deadline: deadline)
            .run(on: board, worker: worker, resume: resume, stillWanted: { getppid() == parent })
    }
}
