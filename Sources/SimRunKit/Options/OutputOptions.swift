import ArgumentParser
import SimEngine

/// `--json`, `--quiet`, `--progress`, `--full-names`: what a command prints, shared by run, fuzz,
/// replay, shrink and explain so that scripts and CI read every command the same way.
struct OutputOptions: ParsableArguments {
    @Flag(
        help:
            "Print one JSON object (schema simrun.result/1: the article 'Exit codes and the JSON schema') on stdout instead of text."
    )
    var json = false
    @Flag(name: [.short, .long], help: "Print only the verdict line.") var quiet = false
    @Flag(help: "Off a terminal, print a progress line every 10 s on stderr (default: none).")
    var progress = false
    @Flag(
        help:
            "Print task identities whole in tables and timelines (by default without the scenario body's 'task>' and argument labels)."
    )
    var fullNames = false

    func validate() throws {
        if json && quiet { throw ValidationError("give either --json or --quiet, not both") }
    }

    /// How often `--progress` prints off a terminal.
    static let progressInterval = Duration.seconds(10)

    /// Sets the console's styles for this command.
    func apply(to console: Console) {
        Self.apply(json: json, quiet: quiet, progress: progress, fullNames: fullNames, to: console)
    }

    /// Sets the console's styles for these flags (here, or in a command's child: `CommandOutput`).
    static func apply(json: Bool, quiet: Bool, progress: Bool, fullNames: Bool, to console: Console) {
        console.outputStyle = json ? .json : quiet ? .quiet : .human
        console.progressStyle = progress ? .periodic(progressInterval) : quiet ? .off : .automatic
        console.fullTaskNames = fullNames
    }

    /// The flags as a command's child is told them.
    var request: CommandOutput { CommandOutput(json: json, quiet: quiet, progress: progress, fullNames: fullNames) }
}

/// The console options a command's child (`RerunCommand`) prints with, as the parent parsed them.
struct CommandOutput: Sendable, Equatable, Codable {
    /// `--json`: one document on stdout.
    var json: Bool
    /// `--quiet`: only the verdict line.
    var quiet: Bool
    /// `--progress`: a progress line every 10 s off a terminal.
    var progress: Bool
    /// `--full-names`: task identities whole in tables and timelines.
    var fullNames: Bool

    /// Sets the console's styles as `OutputOptions.apply` does for the parent's options.
    func apply(to console: Console) {
        OutputOptions.apply(json: json, quiet: quiet, progress: progress, fullNames: fullNames, to: console)
    }
}
