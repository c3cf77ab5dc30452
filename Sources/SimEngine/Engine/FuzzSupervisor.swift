import SimCore

/// Runs a fuzz campaign in worker processes (`simrun _worker`), so that a model that traps ends one
/// worker, not the campaign. Each worker runs `CampaignWorker` over the shared `WorkerBoard` (no
/// system call per run); when one dies, the board says which seed it was running, that seed becomes
/// a `crashed` finding, and a new worker finishes the rest of its chunk, then claims more.
///
/// The outcome matches the in-process `Fuzzer`: the same seeds run, and without `keepGoing` the
/// campaign reports the failure (or crash) with the lowest seed, whatever `jobs` is.
package struct FuzzSupervisor: CampaignExecutor {
    package let plan: RunPlan
    package let strategy: String
    package let configuration: Fuzzer.Configuration

    package init(plan: RunPlan, strategy: String, configuration: Fuzzer.Configuration) {
        self.plan = plan
        self.strategy = strategy
        self.configuration = configuration
    }

    package func runCampaign(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void) throws(CommandFailure)
        -> CampaignOutcome
    {
        let goals = plan.goals()
        let board = try WorkerBoard.create(workers: configuration.jobs, goals: goals.count)
        defer { board.closeDescriptor() }
        let start = ContinuousClock.now
        let pool = WorkerPool(
            board: board, space: configuration.space, keepGoing: configuration.keepGoing,
            spawn: { [self] worker, resume, board throws(CommandFailure) in
                try spawnWorker(worker, resume: resume, board: board, deadline: configuration.deadline(from: start))
            })
        try pool.start()
        var lastReport = start
        while pool.isRunning {
            if Interruption.isRequested { pool.interrupt() }
            try pool.step()
            if ContinuousClock.now - lastReport > .milliseconds(500) {
                lastReport = ContinuousClock.now
                let tally = pool.tally()
                progress(
                    tally.runs, tally.findings.failingRuns, tally.findings.count, (ContinuousClock.now - start).seconds)
            }
        }
        return CampaignOutcome(
            tally: pool.tally(), plan: plan, goals: goals, keepGoing: configuration.keepGoing,
            seconds: (ContinuousClock.now - start).seconds, interrupted: pool.interrupted)
    }

    /// Starts worker `w` as `simrun _worker …` with the board on descriptor 3 (`WorkerArguments`).
    private func spawnWorker(
        _ w: Int, resume: Range<UInt64>?, board: WorkerBoard, deadline: ContinuousClock.Instant?
    ) throws(CommandFailure) -> ChildProcess {
        var arguments = WorkerArguments(
            scenario: plan.scenario.name, variant: plan.variant, strategy: strategy, worker: w,
            workers: configuration.jobs, goals: board.goals, space: configuration.space,
            estimatedSteps: plan.estimatedSteps, keepGoing: configuration.keepGoing,
            milliseconds: deadline.map { Self.milliseconds(until: $0) }, resume: resume,
            from: plan.prefix?.source, keep: plan.prefix?.keep ?? 0, noise: plan.noise)
        arguments.carriers = plan.carriers
        return try ChildProcess.spawn(
            arguments.commandLine, inherit: [(WorkerBoard.childDescriptor, board.descriptor)])
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int64 {
        let left = ContinuousClock.now.duration(to: deadline)
        return max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
    }
}
