import ArgumentParser
import SimCore
import SimEngine

/// `simrun _digests`: runs a list of seeds and answers each run's event digest and verdict, one
/// typed record a seed, for `fuzz --check-determinism` (`DeterminismCampaign`), which runs two of
/// these and compares. What to run is one `DigestsRequest` (SimEngine) on stdin, and running it is
/// the engine's. Hidden: only simrun itself runs it.
struct DigestsChildCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_digests", abstract: "Print the digest of each seed's run for a parent process (internal).",
        shouldDisplay: false)

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        do {
            // One record a seed, written as it ends: a parent sees how far a child got if it dies.
            try DigestsRequest.read(from: 0).run(in: context.catalog) { console.out($0) }
            return ExitStatus.ok
        } catch {
            console.out(ChildRecord.failure(kind: error.kind, message: error.message).text)
            throw error
        }
    }
}
