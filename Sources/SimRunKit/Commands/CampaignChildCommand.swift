import ArgumentParser
import SimCore
import SimEngine

/// `simrun _campaign`: runs a whole in-order campaign (`surw`, `coverage`, `dfs`: one strategy
/// object from run to run) for a parent process, so that a model that traps ends this child and not
/// the command. What to run is one `InOrderRequest` (SimEngine) on stdin; the campaign and the
/// recording of its findings are the engine's (`InOrderRequest.run`), and the answer is one
/// `InOrderOutcome` record on stdout. Hidden: only `InOrderSupervisor` runs it.
struct CampaignChildCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_campaign", abstract: "Run an in-order campaign for a parent process (internal).",
        shouldDisplay: false)

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        // The parent passes Ctrl-C on: the campaign stops and still answers with what ran.
        Interruption.install()
        do {
            try InOrderRequest.read(from: 0).run(in: context.catalog) { console.out($0) }
            return ExitStatus.ok
        } catch {
            // The parent reads what kind of failure it was from this record, not from the exit code.
            console.out(ChildRecord.failure(kind: error.kind, message: error.message).text)
            throw error
        }
    }
}
