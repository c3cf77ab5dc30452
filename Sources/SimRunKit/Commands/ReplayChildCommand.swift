import ArgumentParser
import SimEngine

/// `simrun _replay`: decides one replay in a process of its own and sends the parent the typed
/// record (`ReplayChildRecord`), so that a model that traps ends this child, never the command the
/// user ran. Hidden: only simrun itself runs it (`TraceReplay.decideIsolated`).
struct ReplayChildCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_replay", abstract: "Decide one replay for a parent process (internal).",
        shouldDisplay: false)

    @Argument var trace: String
    @Option var variant: String?
    @Option var noise: Int?
    @Option var build: String?
    @Flag var judgeUnknownBuild = false

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let record: ReplayChildRecord
        do {
            record = .report(
                try TraceReplay.decide(
                    ReplayRequest(
                        trace: trace, variant: variant, noise: noise, build: build,
                        judgeUnknownBuild: judgeUnknownBuild), catalog: context.catalog))
        } catch {
            record = .failure(kind: error.kind, message: error.message)
        }
        context.console.out(record.text)
        return ExitStatus.ok
    }
}
