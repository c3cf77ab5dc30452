import ArgumentParser
import SimCore
import SimEngine
import SimTrace

/// `simrun _record`: records one schedule in a process of its own, checkpointing after every record,
/// so that a parent survives a model that traps and can seal the trace up to the trap (the
/// `partial` record tells it which file). The finished trace itself is the result. Hidden: only
/// simrun itself runs it (`IsolatedRecording`).
struct RecordChildCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_record", abstract: "Record one schedule for a parent process (internal).",
        shouldDisplay: false)

    @Argument var scenario: String
    @OptionGroup var variant: VariantOption
    @Option var strategy: String
    @Option var seed: UInt64
    @Option var out: String
    @Option(help: "Follow the schedule of this trace instead of the strategy.") var tapeFrom: String?
    @Option(help: "Noise lanes added to the run.") var noise: Int = 0
    @Option(help: "Where the run's jobs run (off, carriers, preempt-locks).") var carriers: String = "off"
    @Option(help: "Keep the first --keep decisions of this trace (the prefix of a fuzz --from campaign).")
    var from: String?
    @Option var keep: Int = 0
    @Flag(help: "Follow --tape-from's schedule by job identity (a replay on another variant).") var byIdentity = false
    @Option(help: "The plan's step estimate (no fifo probe run, which may trap).") var estimatedSteps: Int?

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let found = try context.catalog.scenario(named: scenario)
        guard let spec = StrategySpec(parsing: strategy) else {
            throw CommandFailure(ExitStatus.usage, "_record: unknown strategy '\(strategy)'")
        }
        let chosen = try context.catalog.variant(variant.variant, of: found)
        var plan =
            estimatedSteps.map {
                RunPlan(scenario: found, variant: chosen, strategy: spec, estimatedSteps: $0, noise: noise)
            } ?? RunPlan(scenario: found, variant: chosen, strategy: spec, noise: noise)
        guard let mode = CarrierMode(rawValue: carriers) else {
            throw CommandFailure(ExitStatus.usage, "_record: unknown carrier mode '\(carriers)'")
        }
        plan.carriers = mode
        if let from { plan.prefix = SchedulePrefix(tape: try TraceInput(path: from).tape, keep: keep, source: from) }
        let strategyObject: any Strategy
        if let tapeFrom {
            let input = try TraceInput(path: tapeFrom)
            strategyObject =
                byIdentity
                ? ScheduleStrategy(schedule: TraceReplayer(input: input, plan: plan).identitySchedule().schedule)
                : ReplayStrategy(tape: input.tape)
        } else {
            strategyObject = plan.makeStrategy()
        }
        let header = TraceHeader(
            toolVersion: SimRunVersion.current, scenario: found.name, variant: plan.variant, seed: seed,
            strategy: strategy, options: plan.options.map { TraceOption($0.0, $0.1) })
        let writer: TraceWriter
        do {
            writer = try TraceWriter(path: out, header: header)
        } catch {
            throw CommandFailure(ExitStatus.cannotWrite, "cannot write \(out): \(error)")
        }
        // The parent seals this file if we die before `finish`.
        context.console.out(ChildRecord.partial(writer.temporaryPath ?? out).text)
        let result = plan.run(seed: seed, strategy: strategyObject, sink: CheckpointingSink(writer: writer))
        do {
            try writer.finish(Recorder.footer(for: result))
        } catch {
            writer.abandon()
            throw CommandFailure(ExitStatus.cannotWrite, "cannot write \(out): \(error)")
        }
        return ExitStatus.ok
    }
}
