import SimEngine
import SimTestSupport

/// Child processes of the built `simrun` (its catalog is the built-in scenarios): where engine tests
/// run code that traps, so that a trap ends one child and is a finding, as the command line's own
/// launcher does.
enum SimrunChildren {
    /// A launcher of the built `simrun`.
    static var launcher: ProcessLauncher { ProcessLauncher(executable: SimrunProcess.executable.path) }
    /// Runs in children of the built `simrun`.
    static var isolation: Isolation { .processes(launcher) }
}
