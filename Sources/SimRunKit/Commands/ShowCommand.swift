import ArgumentParser
import SimCore
import SimEngine
import SimTrace

struct ShowCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print a trace as a readable timeline.",
        discussion: """
            Each job starts with ▶ (lane/label#ordinal); the events it recorded follow, indented. Decisions \
            that depart from fifo are marked with *; the oracle failure is marked with !!. Task identities are \
            printed short (task>SearchViewModel.type(_:){1}.2 as SearchViewModel.type{1}.2); --full-names prints \
            them as recorded.

            \(ExitStatus.helpText(for: codes))
            """)

    /// The codes `show` can return (the exit-code test walks each one).
    static let codes = [
        ExitStatus.ok, ExitStatus.usage, ExitStatus.badTrace, ExitStatus.missingInput, ExitStatus.cannotWrite,
        ExitStatus.interrupted,
    ]

    @Argument(help: "The .simtrace file.") var trace: String
    @Option(
        parsing: .unconditional, help: "Print at most this many events.", transform: NumberArgument.int(0...Int.max))
    var limit: Int = 5_000
    @Flag(help: "Print task identities whole (by default without the scenario body's 'task>' and argument labels).")
    var fullNames = false

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        do {
            let reader = try TraceReader(path: trace)
            try Timeline(reader: reader, limit: limit, fullTaskNames: fullNames).write { context.console.out($0) }
        } catch {
            throw TraceInput.failure(error)
        }
        return ExitStatus.ok
    }
}
