import SimCore

/// Runs a fuzz campaign in child processes, so that a model that traps ends one child, not the
/// campaign: independent seeds in worker processes (``ChildJob/work(_:)``), an in-order campaign in
/// one child (`FuzzSupervisor+InOrder.swift`).
///
/// Independent seeds: worker processes. Each worker runs `CampaignWorker` over the shared `WorkerBoard`
/// (no system call per run); when one dies, the board says which seed it was running, that seed
/// becomes a `crashed` finding, and a new worker finishes the rest of its chunk, then claims more.
///
/// The outcome matches the in-process `Fuzzer`: the same seeds run, and without `keepGoing` the
/// campaign reports the failure (or crash) with the lowest seed, whatever `jobs` is. No run of the
/// user's code happens in this process: each failure's lowest seed is recorded again in a child
/// (into `scratch`) for its tape.
package struct FuzzSupervisor: CampaignExecutor {
    package let plan: RunPlan
    package let configuration: Fuzzer.Configuration
    /// Who starts the workers (and carries the cancellation that stops them).
    package let launcher: ProcessLauncher
    /// Where the failures' runs are recorded for their tapes (the caller removes it).
    package let scratch: String

    package init(plan: RunPlan, configuration: Fuzzer.Configuration, launcher: ProcessLauncher, scratch: String) {
        self.plan = plan
        self.configuration = configuration
        self.launcher = launcher
        self.scratch = scratch
    }

    package func runCampaign(progress: @escaping @Sendable (Int, Int, Int, Double) -> Void) throws(SimEngineError)
        -> CampaignOutcome
    {
        guard plan.strategy.campaignShape.isIndependent else { return try runInOneChild() }
        var descriptor = try plan.descriptor()
        // A plan that crosses carries its goals; one planned without them learns them in a child.
        var goals = plan.goalNames ?? []
        if plan.goalNames == nil { goals = try launcher.goals(of: descriptor) }
        descriptor.goals = goals
        let board = try WorkerBoard.create(workers: configuration.jobs, goals: goals.count)
        defer { board.closeDescriptor() }
        let start = ContinuousClock.now
        let deadline = configuration.deadline(from: start)
        let pool = WorkerPool(
            board: board, space: configuration.space, keepGoing: configuration.keepGoing, plan: descriptor,
            spawn: { [self] worker, resume, board throws(SimEngineError) in
                let job = ChildJob.Work(
                    plan: descriptor, worker: worker, workers: configuration.jobs, goals: board.goals,
                    space: configuration.space, keepGoing: configuration.keepGoing,
                    milliseconds: deadline.map { Self.milliseconds(until: $0) }, resume: resume)
                return try launcher.start(.work(job), board: board)
            })
        try pool.start()
        var lastReport = start
        while pool.isRunning {
            if launcher.cancellation.isRequested { pool.interrupt() }
            try pool.step()
            if ContinuousClock.now - lastReport > .milliseconds(500) {
                lastReport = ContinuousClock.now
                let tally = pool.tally()
                progress(
                    tally.runs, tally.findings.failingRuns, tally.findings.count, (ContinuousClock.now - start).seconds)
            }
        }
        let seconds = (ContinuousClock.now - start).seconds
        return try CampaignOutcome.assemble(
            tally: pool.tally(), goals: goals, keepGoing: configuration.keepGoing, seconds: seconds,
            interrupted: pool.interrupted
        ) { (seed: UInt64) throws(SimEngineError) -> CampaignOutcome.Rerun in
            let path = "\(scratch)/seed-\(seed).simtrace"
            let outcome = try IsolatedRecording(plan: descriptor, launcher: launcher).record(seed: seed, to: path)
            let input = try TraceInput(path: path)
            return CampaignOutcome.Rerun(
                verdict: outcome.verdict, tape: input.tape, steps: Int(input.footer?.steps ?? 0),
                digest: outcome.digest.value, trace: path)
        }
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int64 {
        let left = ContinuousClock.now.duration(to: deadline)
        return max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
    }
}

extension ProcessLauncher {
    /// The coverage goals of `plan`'s scenario, from its fifo run in a child.
    package func goals(of plan: RunPlan.Descriptor) throws(SimEngineError) -> [String] {
        let run = try run(.plan(plan))
        for case .planned(_, let goals) in run.replies { return goals }
        throw run.failure ?? SimEngineError(.failed, "the planning process \(run.termination) without its goals")
    }
}

extension ChildJob.Work {
    /// The worker's work: maps the board on ``WorkerBoard/childDescriptor`` and runs seeds on it
    /// until the campaign is over for it. Failures that find no free board slot go to `overflow`
    /// (a line each, which the parent reads on the worker's stdout).
    func perform(_ plan: RunPlan, emit overflow: @escaping @Sendable (String) -> Void) throws(SimEngineError) {
        guard workers >= 1, (0..<workers).contains(worker) else {
            throw .usage("child job: worker \(worker) of \(workers)")
        }
        let board = try WorkerBoard.attach(
            descriptor: WorkerBoard.childDescriptor, workers: workers, goals: goals, overflow: overflow)
        let deadline = milliseconds.map { ContinuousClock.now + .milliseconds($0) }
        // Stop when the parent is gone (a SIGKILL of `simrun fuzz` leaves no orphan running seeds);
        // the parent id is watched, a system call, so only every `wantedCheckInterval` runs.
        let parent = getppid()
        CampaignWorker(plan: plan, space: space, keepGoing: keepGoing, deadline: deadline)
            .run(on: board, worker: worker, resume: resume, stillWanted: { getppid() == parent })
    }
}
