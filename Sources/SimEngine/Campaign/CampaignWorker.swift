import SimCore

/// One worker's loop, the same on a thread and in a worker process: claim a chunk of seed indices,
/// run each seed that is below the stop line, and publish runs, goals and failures on the board.
package struct CampaignWorker: Sendable {
    package let plan: RunPlan
    package let space: SeedSpace
    /// Without it the worker lowers the stop line at each failure (first-failure campaigns).
    package let keepGoing: Bool
    /// When a `--time` campaign ends.
    package let deadline: ContinuousClock.Instant?

    package init(plan: RunPlan, space: SeedSpace, keepGoing: Bool, deadline: ContinuousClock.Instant?) {
        self.plan = plan
        self.space = space
        self.keepGoing = keepGoing
        self.deadline = deadline
    }

    /// How often (in runs) `stillWanted` is asked: it may cost a system call.
    package static let wantedCheckInterval = 64

    /// Runs seeds as worker `worker` until the space, the stop line, the deadline or an interrupt
    /// ends it. `resume` is the rest of a chunk a dead predecessor left; `stillWanted` is asked every
    /// `wantedCheckInterval` runs; `afterRun` is called after each run (progress reports).
    package func run(
        on board: some CampaignBoard, worker: Int, resume: Range<UInt64>? = nil,
        stillWanted: () -> Bool = { true }, afterRun: () -> Void = {}
    ) {
        if let resume {
            // The rest of one chunk a predecessor claimed: within one chunk of the index space.
            precondition(
                resume.upperBound - resume.lowerBound <= SeedSpace.chunkSize,
                "CampaignWorker: resume \(resume) is more than one chunk of \(SeedSpace.chunkSize)")
        }
        let strategy = plan.makeStrategy()
        var index = resume?.lowerBound ?? 0
        var end = resume?.upperBound ?? 0
        var runs = 0
        while true {
            if index >= end {
                guard let claimed = board.claimChunk(worker) else { break }
                // Chunks are claimed from one counter that only grows: a worker's indices only grow,
                // which the stop-line test below relies on (the first index past it ends the worker).
                assert(
                    claimed.lowerBound >= end && claimed.upperBound - claimed.lowerBound <= SeedSpace.chunkSize,
                    "CampaignWorker: chunk \(claimed) claimed after indices up to \(end)")
                index = claimed.lowerBound
                end = claimed.upperBound
            }
            // Indices only grow, so the first seed past the space or the stop line ends this worker.
            guard let seed = space.seed(at: index), seed <= board.stopSeed, !board.isInterrupted else { break }
            if let deadline, ContinuousClock.now >= deadline { break }
            runs += 1
            if runs % Self.wantedCheckInterval == 0 && !stillWanted() { break }
            board.setInFlight(worker, index)
            let result = plan.run(seed: seed, strategy: strategy)
            board.addRun(worker, seed: seed, result)
            if !result.lockOrder.isEmpty { board.addLockOrder(worker, seed: seed, result.lockOrder) }
            if result.verdict.isFailure {
                if !keepGoing { board.lowerStopSeed(to: seed) }
                board.addFailure(
                    worker, index: index, seed: seed, signature: FailureSignature(result.verdict).id,
                    digest: result.digest.value)
            }
            afterRun()
            index += 1
        }
        board.setInFlight(worker, nil)
    }
}
