import ArgumentParser
import SimEngine

/// `--build-label L`, shared by the commands that write traces or replay them on this build.
///
/// A trace header records the build that made it: the executable's build id, or this label when
/// given (for builds whose id says nothing to a person, or a platform without build ids). `replay`
/// compares it with the replaying build's.
struct BuildLabelOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Name this build in trace headers instead of the executable's build id (e.g. a commit).",
            discussion: "Also read from SIMRUN_BUILD_LABEL.", valueName: "label"))
    var buildLabel: String?

    func validate() throws {
        if let buildLabel, buildLabel.isEmpty || buildLabel.contains(where: \.isNewline) {
            throw ValidationError("--build-label must be a non-empty single line")
        }
    }

    /// The value of `--build-label L` or `--build-label=L` in a command line (the last one wins, as
    /// the parser's), before `--` ends the options; nil when absent. `SimRun.main` reads it before
    /// parsing, so that the children it starts name the same build.
    static func label(in arguments: [String]) -> String? {
        var found: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--build-label", index + 1 < arguments.count {
                found = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--build-label=") {
                found = String(argument.dropFirst("--build-label=".count))
            }
            index += 1
        }
        return found.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// A command whose `--build-label` is bound while it runs (``BuildIdentity/label``).
protocol LabelsBuild {
    var build: BuildLabelOption { get }
}

extension RunCommand: LabelsBuild {}
extension FuzzCommand: LabelsBuild {}
extension ShrinkCommand: LabelsBuild {}
extension ReplayCommand: LabelsBuild {}
