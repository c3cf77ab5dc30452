// A user's search screen for the fix-check tests (issue #43): a `@MainActor` view model whose every
// keystroke starts a search `Task {}`, the bug fixed the two ways people fix it. `staleSearch` has
// the three as variants of one build; `searchScenario(_:)` is the screen as one commit builds it,
// for the executables beside this library (ledger-recorded, ledger-fixed, …).
import SimCapture
import SimCore

/// How the screen deals with an older search that answers after a newer one.
public enum SearchFix: Sendable {
    /// It does not: the older search's results can replace the newer query's.
    case none
    /// A new keystroke cancels the previous search `Task`, which checks `Task.isCancelled` after its
    /// sleep: the older search's sleep is cut short and it never answers.
    case cancelPrevious
    /// A guard drops results whose query is no longer the field's: both searches still run and race.
    case dropStale
}

/// `stale-search`: `buggy`, `fixed` (cancels the previous task), `guarded` (drops stale results).
public let staleSearch = Scenario.async(
    name: "stale-search", summary: "an older search answering last replaces the newer query's results",
    variants: [
        .init("buggy", "a Task per keystroke, never cancelled"),
        .init("fixed", "a new keystroke cancels the previous search Task"),
        .init("guarded", "results of a query no longer in the field are dropped"),
    ]
) { simulation, variant in
    let fix: SearchFix = variant == "fixed" ? .cancelPrevious : variant == "guarded" ? .dropStale : .none
    await typeTwoQueries(simulation, fix: fix)
}

/// `search`/`default` as the commit with `code` builds it: `.fixed` cancels the previous task, every
/// other commit has the bug.
public func searchScenario(_ code: LedgerCode) -> Scenario {
    Scenario.async(
        name: "search", summary: "an older search answering last replaces the newer query's results",
        variants: [.init("default", "the code of this build")]
    ) { simulation, _ in
        await typeTwoQueries(simulation, fix: code == .fixed ? .cancelPrevious : .none)
    }
}

/// The user types "sw" and then "swift" at once; both searches sleep 100 ms (a debounce), so their
/// wake-ups are due at the same instant: which runs first is a decision of the run.
func typeTwoQueries(_ simulation: Simulation, fix: SearchFix) async {
    let screen = SearchScreen()
    simulation.atEnd("shows-latest-query") {
        guard screen.shown != screen.query else { return nil }
        return "the field shows \"\(screen.query)\" but the list shows results for \"\(screen.shown ?? "nothing")\""
    }
    let model = await SearchModel(screen: screen, fix: fix)
    await model.type("sw")
    await model.type("swift")
}

/// What the user sees (written on the main actor, read by the oracle after the run).
final class SearchScreen: @unchecked Sendable {
    var query = ""
    var shown: String?
}

/// The backend, as an actor.
actor SearchBackend {
    func search(_ query: String) -> String { query }
}

/// The view model, as an app has it.
@MainActor final class SearchModel {
    private let screen: SearchScreen
    private let fix: SearchFix
    private let backend = SearchBackend()
    private var search: Task<Void, Never>?

    init(screen: SearchScreen, fix: SearchFix) {
        self.screen = screen
        self.fix = fix
    }

    func type(_ query: String) {
        screen.query = query
        if fix == .cancelPrevious { search?.cancel() }
        search = Task {
            try? await Task.sleep(for: .milliseconds(100))
            if fix == .cancelPrevious && Task.isCancelled { return }
            let results = await backend.search(query)
            if fix == .dropStale && screen.query != query { return }
            screen.shown = results
        }
    }
}
