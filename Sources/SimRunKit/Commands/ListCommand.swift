import ArgumentParser
import SimEngine
import SimTrace

struct ListCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the scenarios and their variants.",
        discussion: ExitStatus.helpText(for: codes))

    /// The codes `list` can return (the exit-code test walks each one).
    static let codes = [ExitStatus.ok, ExitStatus.usage]

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let width = context.catalog.scenarios.map(\.name.count).max() ?? 0
        for scenario in context.catalog.scenarios {
            context.console.out(scenario.name.padding(width) + "  " + scenario.summary)
            for variant in scenario.variants {
                context.console.out("  " + variant.name.padding(width) + "  " + variant.summary)
            }
        }
        return ExitStatus.ok
    }
}
