import ArgumentParser
import SimCore
import SimEngine

/// `simrun _digests`: runs a list of seeds and prints each run's event digest and verdict, one line a
/// seed, for `fuzz --check-determinism` (`DeterminismCampaign`), which runs two of these and compares.
/// Hidden: only simrun itself runs it.
struct DigestsChildCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_digests", abstract: "Print the digest of each seed's run for a parent process (internal).",
        shouldDisplay: false)

    @Argument var scenario: String
    @OptionGroup var variant: VariantOption
    @Option var strategy: String
    @Option var start: UInt64
    @Option var stride: UInt64 = 1
    @Option var count: Int
    @Option(help: "Noise lanes added to each run.") var noise: Int = 0
    @Option(help: "Where each run's jobs run (off, carriers, preempt-locks).") var carriers: String = "off"
    /// The parent's step estimate: given, the child runs no fifo probe of its own (a probe that traps
    /// would be taken for a trap of the first seed).
    @Option(name: .customLong("estimated-steps")) var estimatedSteps: Int?

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let found = try context.catalog.scenario(named: scenario)
        guard let spec = StrategySpec(parsing: strategy) else {
            throw CommandFailure(ExitStatus.usage, "unknown strategy \(strategy)")
        }
        let chosen = try context.catalog.variant(variant.variant, of: found)
        var plan =
            estimatedSteps.map {
                RunPlan(scenario: found, variant: chosen, strategy: spec, estimatedSteps: $0, noise: noise)
            } ?? RunPlan(scenario: found, variant: chosen, strategy: spec, noise: noise)
        guard let mode = CarrierMode(rawValue: carriers) else {
            throw CommandFailure(ExitStatus.usage, "unknown carrier mode \(carriers)")
        }
        plan.carriers = mode
        let seeds = DeterminismCampaign.Seeds(start: start, stride: stride, count: count)
        for seed in seeds.all {
            let result = plan.run(seed: seed, strategy: plan.makeStrategy())
            // One line a seed, written as it ends: a parent sees how far a child got if it dies.
            context.console.out(DeterminismCampaign.line(seed: seed, result: result))
        }
        return ExitStatus.ok
    }
}
