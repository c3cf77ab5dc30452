import ArgumentParser
import SimCore
import SimEngine
import SimTrace

/// `simrun _record`: records one schedule in a process of its own, checkpointing after every record,
/// so that a parent survives a model that traps and can seal the trace up to the trap (the
/// `partial` record tells it which file). What to record is one `RecordRequest` (SimEngine) on
/// stdin. The finished trace itself is the result. Hidden: only simrun itself runs it
/// (`IsolatedRecording`).
struct RecordChildCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_record", abstract: "Record one schedule for a parent process (internal).",
        shouldDisplay: false)

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        do {
            return try record(context)
        } catch {
            // The parent reads what kind of failure it was from this record, not from the exit code.
            context.console.out(ChildRecord.failure(kind: error.kind, message: error.message).text)
            throw error
        }
    }

    private func record(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let request = try RecordRequest.read(from: 0)
        let plan = try request.plan(in: context.catalog)
        let strategyObject = try request.strategy(for: plan)
        let out = request.out
        let header = TraceHeader(
            toolVersion: SimRunVersion.current, scenario: plan.scenario.name, variant: plan.variant,
            seed: request.seed, strategy: request.strategy, options: plan.options.map { TraceOption($0.0, $0.1) },
            build: BuildIdentity.current)
        let writer: TraceWriter
        do {
            writer = try TraceWriter(path: out, header: header)
        } catch {
            throw CommandFailure(ExitStatus.cannotWrite, "cannot write \(out): \(error)")
        }
        // The parent seals this file if we die before `finish`.
        context.console.out(ChildRecord.partial(writer.temporaryPath ?? out).text)
        let result = plan.run(seed: request.seed, strategy: strategyObject, sink: CheckpointingSink(writer: writer))
        do {
            try writer.finish(Recorder.footer(for: result))
        } catch {
            writer.abandon()
            throw CommandFailure(ExitStatus.cannotWrite, "cannot write \(out): \(error)")
        }
        return ExitStatus.ok
    }
}
