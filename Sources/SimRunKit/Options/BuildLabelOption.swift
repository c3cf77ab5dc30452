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
}

/// A command whose `--build-label` is bound while it runs (``BuildIdentity/label``).
protocol LabelsBuild {
    var build: BuildLabelOption { get }
}

extension RunCommand: LabelsBuild {}
extension FuzzCommand: LabelsBuild {}
extension ShrinkCommand: LabelsBuild {}
extension ReplayCommand: LabelsBuild {}
