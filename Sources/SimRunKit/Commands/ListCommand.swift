import ArgumentParser
import SimEngine
import SimTrace

struct ListCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the scenarios and their variants.",
        discussion: "Without --group: the app scenarios. --group sctbench: the ported SCTBench programs.\n\n"
            + ExitStatus.helpText(for: codes))

    /// The codes `list` can return (the exit-code test walks each one).
    static let codes = [ExitStatus.ok, ExitStatus.usage, ExitStatus.cannotWrite]

    @Option(help: "List this group instead of the app scenarios (sctbench).") var group: String?

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let shown = context.catalog.scenarios.filter { $0.group == group }
        if shown.isEmpty, let group {
            let groups = Set(context.catalog.scenarios.compactMap(\.group)).sorted().joined(separator: ", ")
            throw .usage("no scenario group '\(group)' (groups: \(groups.isEmpty ? "none" : groups))")
        }
        let width = shown.map(\.name.count).max() ?? 0
        for scenario in shown {
            context.console.out(scenario.name.padding(width) + "  " + scenario.summary)
            for variant in scenario.variants {
                context.console.out("  " + variant.name.padding(width) + "  " + variant.summary)
            }
        }
        return ExitStatus.ok
    }
}
