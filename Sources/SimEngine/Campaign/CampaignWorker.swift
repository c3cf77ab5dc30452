import SimCore

/// The campaign loop, the one there is (Shuttle's runner: ask the strategy for the next execution,
/// run it, until it has none): claim a chunk of seed indices, run each seed below the stop line,
/// publish runs, goals and failures on the board. Worker threads and worker processes run it for
/// independent seeds, each with a strategy object of its own; an in-order or exhaustive campaign
/// runs it on one thread with the one strategy object that learns or walks from run to run.
package struct CampaignWorker: Sendable {
    package let plan: RunPlan
    package let space: SeedSpace
    /// Without it the worker lowers the stop line at each failure (first-failure campaigns).
    package let keepGoing: Bool
    /// When a `--time` campaign ends.
    package let deadline: ContinuousClock.Instant?
    /// An in-order campaign run again to record one of its runs: that run goes to its sink.
    package let recording: InOrderRecording?

    package init(
        plan: RunPlan, space: SeedSpace, keepGoing: Bool, deadline: ContinuousClock.Instant?,
        recording: InOrderRecording? = nil
    ) {
        self.plan = plan
        self.space = space
        self.keepGoing = keepGoing
        self.deadline = deadline
        self.recording = recording
    }

    /// How often (in runs) `stillWanted` is asked: it may cost a system call.
    package static let wantedCheckInterval = 64

    /// The next execution `strategy` hands out at `index`: the space's seed there (an exhaustive
    /// walk's run number), or nil when the space or the walk has no more.
    private func execution(at index: UInt64, of strategy: any Strategy) -> UInt64? {
        if let walker = strategy as? any ExhaustiveStrategy, !walker.hasMore { return nil }
        return space.seed(at: index)
    }

    /// Runs seeds as worker `worker` with `strategy` (nil: a fresh one of the plan's) until the space (or the strategy), the stop
    /// line, the deadline or an interrupt ends it: the one stop rule of every campaign. `resume` is
    /// the rest of a chunk a dead predecessor left; `stillWanted` is asked every
    /// `wantedCheckInterval` runs; `afterRun` is called after each run (progress reports).
    package func run(
        on board: some CampaignBoard, worker: Int, strategy: (any Strategy)? = nil, resume: Range<UInt64>? = nil,
        stillWanted: () -> Bool = { true }, afterRun: () -> Void = {}
    ) {
        if let resume {
            // The rest of one chunk a predecessor claimed: within one chunk of the index space.
            precondition(
                resume.upperBound - resume.lowerBound <= SeedSpace.chunkSize,
                "CampaignWorker: resume \(resume) is more than one chunk of \(SeedSpace.chunkSize)")
        }
        let strategy = strategy ?? plan.makeStrategy()
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
            guard let seed = execution(at: index, of: strategy), seed <= board.stopSeed, !board.isInterrupted
            else { break }
            // A recording goes to its run whatever the clock says: it must learn the same on the way.
            if recording == nil, let deadline, ContinuousClock.now >= deadline { break }
            runs += 1
            if runs % Self.wantedCheckInterval == 0 && !stillWanted() { break }
            board.willRun(worker, index: index, seed: seed)
            let result: RunResult
            if let recording, UInt64(recording.run) == index {
                recording.seed = seed
                result = plan.run(seed: seed, strategy: strategy, sink: recording.sink)
                recording.result = result
            } else {
                result = plan.run(seed: seed, strategy: strategy)
            }
            board.addRun(worker, seed: seed, result)
            if !result.lockOrder.isEmpty { board.addLockOrder(worker, seed: seed, result.lockOrder) }
            if result.verdict.isFailure {
                if !keepGoing { board.lowerStopSeed(to: seed) }
                board.addFailure(worker, index: index, seed: seed, result)
            }
            afterRun()
            index += 1
        }
        board.setInFlight(worker, nil)
    }
}
