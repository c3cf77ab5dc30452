import Foundation

/// The traces committed in the package's `Traces/` directory, by path (read only: a test that
/// changes one works on a copy in its own temporary directory).
public enum CommittedTraces {
    /// The `Traces/` directory.
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Traces").path
    /// Blueprint's reentrant update: the recorded run trapped.
    public static let blueprintCrash = directory + "/blueprint-reentrant-update-crash-buggy-crashed.simtrace"
    /// The lost typed text: a failure that does not trap.
    public static let lostInput = directory + "/lost-input-navigation-buggy-typed-text-kept.simtrace"

    /// The first `count` bytes of the trace at `path`, written to `name` in `directory`; its path.
    public static func cut(_ path: String, _ count: Int, to directory: URL, _ name: String) throws -> String {
        let target = directory.appendingPathComponent(name).path
        try Data(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(count)).write(to: URL(fileURLWithPath: target))
        return target
    }
}
