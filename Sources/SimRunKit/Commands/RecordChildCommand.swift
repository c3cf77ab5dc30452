import ArgumentParser
import SimCore
import SimEngine

/// `simrun _record`: records one schedule in a process of its own, checkpointing after every record,
/// so that a parent survives a model that traps and can seal the trace up to the trap (the
/// `partial` record tells it which file). What to record is one `RecordRequest` (SimEngine) on
/// stdin, and the recording is the engine's (`RecordRequest.record`); the finished trace itself is
/// the result. Hidden: only simrun itself runs it (`IsolatedRecording`).
struct RecordChildCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_record", abstract: "Record one schedule for a parent process (internal).",
        shouldDisplay: false)

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        do {
            try RecordRequest.read(from: 0).record(in: context.catalog) { console.out($0) }
            return ExitStatus.ok
        } catch {
            // The parent reads what kind of failure it was from this record, not from the exit code.
            console.out(ChildRecord.failure(kind: error.kind, message: error.message).text)
            throw error
        }
    }
}
