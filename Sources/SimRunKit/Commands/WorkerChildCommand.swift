import ArgumentParser
import SimCore
import SimEngine

/// `simrun _worker`: one fuzz worker process, a thin adapter over `WorkerArguments` (SimEngine),
/// which writes this command line and runs it. It runs the seed indices `--first-index..<--chunk-end`
/// (the rest of a chunk whose worker died) if given, then chunks it claims from the board (fd 3),
/// publishing runs, goals and failures there; only a failure whose signature finds no free slot is
/// printed, as a `FailureLine`. Hidden: only `FuzzSupervisor` runs it.
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
    @Option(help: "Where each run's jobs run (off, carriers, preempt-locks).") var carriers: String = "off"

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        // The campaign logic is SimEngine's (`WorkerArguments.run` drives `CampaignWorker`); this
        // command only turns the options back into the arguments the supervisor wrote.
        if let upper, upper < lower { throw .usage("--upper \(upper) is below --lower \(lower)") }
        guard shardCount >= 1, shardIndex >= 0, shardIndex < shardCount else {
            throw .usage("--shard-index must be in 0..<--shard-count")
        }
        let space = SeedSpace(
            seeds: lower..<(upper ?? .max), shardIndex: shardIndex, shardCount: shardCount, bounded: upper != nil)
        let resume = firstIndex.flatMap { first in chunkEnd.flatMap { first < $0 ? first..<$0 : nil } }
        guard let mode = CarrierMode(rawValue: carriers) else { throw .usage("unknown carrier mode '\(carriers)'") }
        var arguments = WorkerArguments(
            scenario: scenario, variant: variant, strategy: strategy, worker: worker, workers: workers, goals: goals,
            space: space, estimatedSteps: estimatedSteps, keepGoing: keepGoing, milliseconds: milliseconds,
            resume: resume, from: from, keep: keep, noise: noise
        )
        arguments.carriers = mode
        try arguments.run(catalog: context.catalog, console: context.console)
        return ExitStatus.ok
    }
}
