import ArgumentParser
import SimCore
import SimEngine

/// `simrun _worker`: one fuzz worker process. It reads its `WorkerRequest` (SimEngine; one versioned
/// JSON object written by `FuzzSupervisor`) from stdin and runs it: the rest of a chunk whose worker
/// died if the request says so, then chunks it claims from the board (fd 3), publishing runs, goals
/// and failures there; only a failure whose signature finds no free slot is printed, as a
/// `FailureLine`. Hidden: only `FuzzSupervisor` runs it.
struct WorkerChildCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_worker", abstract: "Run fuzz seeds for a parent process (internal).", shouldDisplay: false)

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        // The campaign logic is SimEngine's (`WorkerRequest.run` drives `CampaignWorker`).
        let console = context.console
        try WorkerRequest.read(from: 0).run(catalog: context.catalog, overflow: { console.out($0) })
        return ExitStatus.ok
    }
}
