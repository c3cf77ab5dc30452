import SimCapture
import SimCore

/// A `@MainActor` class checked like an actor, with real sleeps on the virtual clock: a draft store
/// whose `save` computes the next revision, awaits the upload (a 100 ms `Task.sleep`), then stores
/// it — two saves during one upload both become revision 1.
///
/// `buggy`: read, await the upload, write. `fixed`: take the revision, then upload. Needs the
/// executor-factory route (`@MainActor` jobs and sleeps): run it through `simrun`.
///
/// Known minimal scenario: `save(a)` ‖ `save(a)` → 1 and 1 (one at a time: 1, then 2).
public enum MainActorDraftCheck {
    /// The minimal failing scenario shrinking reaches.
    public static let minimal = CallScenario(tasks: [[.init(0, 0)], [.init(0, 0)]])

    /// The declaration: `save(text)` and `revision()`.
    public static let check = ObjectCheck<DraftStore>(
        name: "main-actor-draft-check",
        summary: "a @MainActor draft store reads its revision, awaits a 100 ms upload, writes: saves collide",
        variants: [
            .init("buggy", "read the revision, await the upload, write it") { _ in await DraftStore(takesFirst: false)
            },
            .init("fixed", "take the next revision, then await the upload") { _ in await DraftStore(takesFirst: true) },
        ],
        operations: [
            .init("save", arguments: ["a", "b"]) { store, text in await store.save(text) },
            .init("revision") { store in await store.revision },
        ],
        concurrency: .executorFactory)

    /// The scenario `simrun list` shows.
    public static let scenario = check.scenario()
}

/// The draft store under test: main-actor state, as a view model's would be.
@MainActor public final class DraftStore {
    let takesFirst: Bool
    /// The last saved revision.
    public private(set) var revision = 0
    private var uploaded: [String] = []

    init(takesFirst: Bool) { self.takesFirst = takesFirst }

    /// Saves `text`; returns its revision.
    public func save(_ text: String) async -> Int {
        let next = revision + 1
        if takesFirst { revision = next }
        try? await Task.sleep(for: .milliseconds(100))
        uploaded.append(text)
        if !takesFirst { revision = next }
        return next
    }
}
