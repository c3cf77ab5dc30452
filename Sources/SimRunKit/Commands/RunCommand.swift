import ArgumentParser
import SimCore
import SimEngine

struct RunCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run one schedule of a scenario.",
        discussion:
            "Exit 0 when the oracles hold, 1 when one fails (the trace is written and a replay command printed).")

    @Argument(help: "The scenario to run (see `simrun list`).") var scenario: String
    @Option(help: "The variant to run (default: the scenario's first).") var variant: String?
    @Option(help: "The seed of the schedule.") var seed: UInt64 = 0
    @Option(help: "The strategy: \(StrategySpec.names).") var strategy: StrategySpec = .init(kind: .random)
    @Option(name: .shortAndLong, help: "Write the trace here (always; by default only a failing run is written).")
    var out: String?
    @Option(help: "Where a failing run's trace goes when --out is not given.") var failureDir = "simrun-failures"
    @Flag(help: "Run the seed in two separate processes and compare their events (exit 1 when they differ).")
    var checkDeterminism = false
    @Option(
        help:
            "Add this many noise lanes: background jobs that touch nothing, scheduled across the whole run and recorded like any job (0...64)."
    ) var noise: Int = 0

    func validate() throws {
        if !(0...RunPlan.maxNoise).contains(noise) {
            throw ValidationError("--noise must be 0...\(RunPlan.maxNoise), got \(noise)")
        }
    }

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let found = try context.catalog.scenario(named: scenario)
        let plan = RunPlan(
            scenario: found, variant: try context.catalog.variant(variant, of: found), strategy: strategy,
            noise: noise)
        if checkDeterminism { return try self.checkDeterminism(plan: plan, console: context.console) }
        var result = plan.run(seed: seed, strategy: plan.makeStrategy())
        var path = out
        if path == nil && result.verdict.isFailure {
            try ensureDirectory(failureDir)
            path = "\(failureDir)/\(found.name)-\(plan.variant)-seed\(seed).simtrace"
        }
        if let path {
            result = try Recorder.record(
                plan: plan, seed: seed, strategy: plan.makeStrategy(), strategyName: strategy.description, to: path)
        }
        let console = context.console
        console.out(
            "\(found.name)/\(plan.variant) seed \(seed) \(strategy): \(result.verdict.isFailure ? "FAIL" : "pass")"
                + " — \(result.steps) steps, \(result.eventCount) events, \(result.tape.count) decisions, digest \(result.digest)"
        )
        if result.verdict.isFailure { console.out("  \(result.verdict)") }
        if let path {
            console.out("trace: \(path)")
            if result.verdict.isFailure { console.out("replay: \(context.programName) replay \(shellQuoted(path))") }
        }
        return result.verdict.isFailure ? ExitStatus.failure : ExitStatus.ok
    }
}
