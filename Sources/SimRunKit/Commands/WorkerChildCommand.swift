import ArgumentParser
import SimCore
import SimEngine

#if canImport(Glibc)
    import Glibc
#endif

/// `simrun _worker`: one fuzz worker process. It runs the seed indices `--first-index..<--chunk-end`
/// (the rest of a chunk whose worker died) if given, then chunks it claims from the board's shared
/// counter, and publishes on the shared board (fd 3) the run in flight, the runs done and the
/// failures found (a slot per distinct failure: its signature, first seed, digest and occurrences).
/// Only a failure whose signature finds no free slot is printed, as a line
/// `fail <index> <seed> <signature hash> <digest>`. Hidden: only `FuzzSupervisor` runs it.
struct WorkerChildCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_worker", abstract: "Run fuzz seeds for a parent process (internal).", shouldDisplay: false)

    @Argument var scenario: String
    @Option var variant: String
    @Option var strategy: String
    @Option var worker: Int
    @Option var workers: Int
    @Option var goals: Int
    @Option var firstIndex: UInt64?
    @Option var chunkEnd: UInt64?
    @Option var lower: UInt64
    @Option var upper: UInt64?
    @Option(help: "Stop after this many milliseconds.") var milliseconds: Int64?
    @Option var shardIndex: Int = 0
    @Option var shardCount: Int = 1
    @Flag var keepGoing = false
    @Option(help: "A trace whose first --keep decisions every run follows (fuzz --from).") var from: String?
    @Option var keep: Int = 0
    @Option(help: "The plan's step estimate, learned by the parent (no probe run here).") var estimatedSteps: Int?
    @Option(help: "Noise lanes added to every run.") var noise: Int = 0

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        // Stop when the parent is gone (a SIGKILL of `simrun fuzz` leaves no orphan running seeds);
        // `prctl(PR_SET_PDEATHSIG)` is not imported into Swift, so the parent id is watched instead.
        let parent = getppid()
        var runs = 0
        let deadline = milliseconds.map { ContinuousClock.now + .milliseconds($0) }
        let board = try WorkerBoard.attach(descriptor: WorkerBoard.childDescriptor, workers: workers, goals: goals)
        let found = try context.catalog.scenario(named: scenario)
        let spec = StrategySpec(parsing: strategy) ?? StrategySpec(kind: .fifo)
        let chosen = try context.catalog.variant(variant, of: found)
        var plan =
            estimatedSteps.map {
                RunPlan(scenario: found, variant: chosen, strategy: spec, estimatedSteps: $0, noise: noise)
            } ?? RunPlan(scenario: found, variant: chosen, strategy: spec, noise: noise)
        if let from {
            plan.prefix = SchedulePrefix(tape: try TraceInput(path: from).tape, keep: keep, source: from)
        }
        let strategyObject = plan.makeStrategy()
        var slots = FailureSlots(board: board, worker: worker)
        // The rest of a dead worker's chunk first, when resuming; then chunks from the board.
        var index: UInt64 = 0
        var end: UInt64 = 0
        if let firstIndex, let chunkEnd, firstIndex < chunkEnd {
            index = firstIndex
            end = chunkEnd
        }
        while true {
            if index >= end {
                guard let claimed = board.claimChunk(worker) else { break }
                index = claimed.lowerBound
                end = claimed.upperBound
            }
            let seed = lower &+ (index &* UInt64(shardCount) &+ UInt64(shardIndex))
            if seed < lower || upper.map({ seed >= $0 }) == true { break }
            if board.stopSeed < seed || board.isInterrupted { break }
            if let deadline, ContinuousClock.now >= deadline { break }
            runs += 1
            if runs % 64 == 0 && getppid() != parent { break }
            board.setInFlight(worker, index)
            let result = plan.run(seed: seed, strategy: strategyObject)
            let reached = result.reachedGoals.compactMap { result.goals.firstIndex(of: $0) }
            board.addRun(worker, reached: reached)
            if result.verdict.isFailure {
                if !keepGoing { board.lowerStopSeed(to: seed) }
                let signature = Digest.hash(text: FailureSignature(result.verdict).description)
                let onBoard = slots.record(
                    on: board, worker: worker, signature: signature, seed: seed, digest: result.digest.value)
                if !onBoard { context.console.out("fail \(index) \(seed) \(signature) \(result.digest.value)") }
            }
            index += 1
        }
        board.setInFlight(worker, nil)
        return ExitStatus.ok
    }
}
