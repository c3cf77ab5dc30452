import SimRunKit

/// A user's own async code, written with plain Swift concurrency and no simrun models: a
/// `@MainActor` editor saves the draft with `Task { await server.save(text) }` after every edit.
///
/// `buggy`: saves race, and an older save that reaches the server last overwrites the newer draft.
/// `fixed`: each save task first awaits the previous one, so saves reach the server in edit order.
/// This executable is built on `SimRun.main`, so the executor-factory route captures `@MainActor`.
enum AutosaveDraft {
    static let scenario = Scenario.async(
        name: "autosave-draft",
        summary: "an older autosave reaches the server last and overwrites the newer draft",
        variants: [
            .init("buggy", "a save Task per edit, unordered"),
            .init("fixed", "each save Task awaits the previous one"),
        ]
    ) { simulation, variant in
        let server = DraftServer(simulation: simulation)
        simulation.atEnd("server-has-latest-draft") {
            server.stored == "Hello, world"
                ? nil : "the server kept \"\(server.stored)\", the user wrote \"Hello, world\""
        }
        let editor = await DraftEditor(server: server, ordersSaves: variant == "fixed")
        for text in ["Hello", "Hello, world"] { await editor.edit(text) }
        await editor.waitForSaves()
    }
}

/// The server: a save takes two hops, during which another save may overtake it.
final class DraftServer: @unchecked Sendable {
    let simulation: Simulation
    var stored = ""

    init(simulation: Simulation) { self.simulation = simulation }

    func save(_ text: String) async {
        await Task.yield()
        await Task.yield()
        stored = text
        simulation.emit("server.save", "draft", ["text": .text(text)])
    }
}

@MainActor final class DraftEditor {
    let server: DraftServer
    let ordersSaves: Bool
    private var lastSave: Task<Void, Never>?
    private var saves: [Task<Void, Never>] = []

    init(server: DraftServer, ordersSaves: Bool) {
        self.server = server
        self.ordersSaves = ordersSaves
    }

    func edit(_ text: String) {
        let previous = ordersSaves ? lastSave : nil
        let save = Task {
            await previous?.value
            await server.save(text)
        }
        lastSave = save
        saves.append(save)
    }

    func waitForSaves() async {
        for save in saves { await save.value }
    }
}
