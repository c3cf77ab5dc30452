import SimCapture
import SimCore

/// A stale search response, in plain Swift concurrency: a `@MainActor` view model starts
/// `Task { try await Task.sleep(for: .milliseconds(300)); results = await api.search(q) }` on every
/// keystroke. The user types "s", pauses, then "sw" and "swi"; responses take 100 to 500 ms.
///
/// `buggy` never cancels the previous task, so the search for "s" can come back last and its
/// results replace those for "swi". `fixed` cancels the previous task on each keystroke and checks
/// `Task.isCancelled` after the search returns. Needs the executor-factory route (`@MainActor`, sleeps).
public enum SearchDebounceTask {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario.async(
        name: "search-debounce-task",
        summary:
            "a @MainActor view model's un-cancelled debounce Task lets a stale search response win"
            + " — a race: fifo passes",
        variants: [
            .init("buggy", "a Task per keystroke, the previous one never cancelled"),
            .init("fixed", "cancel the previous Task; check Task.isCancelled after the await"),
        ],
        limits: RunLimits(maxSteps: 2_000)
    ) { simulation, variant in
        let screen = SearchScreen()
        simulation.atEnd("results-match-latest-query") {
            guard let shown = screen.resultsQuery else { return "no results were ever shown" }
            return shown == screen.query
                ? nil : "the field shows \"\(screen.query)\" but the list shows results for \"\(shown)\""
        }
        simulation.sometimes("stale response arrived") { screen.staleArrivals > 0 }
        let model = await SearchViewModel(
            api: SearchService(simulation: simulation), screen: screen, cancelsPrevious: variant == "fixed")
        for (pause, query) in [(0, "s"), (350, "sw"), (100, "swi")] {
            if pause > 0 { try? await Task.sleep(for: .milliseconds(pause)) }
            await model.type(query)
        }
    }
}

/// What the user sees (written on the main actor, read by the oracle after the run).
final class SearchScreen: @unchecked Sendable {
    var query = ""
    var resultsQuery: String?
    var staleArrivals = 0
}

/// The search backend: each response takes 100, 300 or 500 ms, a data choice of the run.
actor SearchService {
    let simulation: Simulation

    init(simulation: Simulation) { self.simulation = simulation }

    func search(_ query: String) async -> String {
        let latency = [100, 300, 500][simulation.choose(3, "search.latency")]
        simulation.emit("search.request", query, ["latency": .int(latency)])
        try? await Task.sleep(for: .milliseconds(latency))
        return query
    }
}

@MainActor final class SearchViewModel {
    let api: SearchService
    let screen: SearchScreen
    let cancelsPrevious: Bool
    private var task: Task<Void, Never>?

    init(api: SearchService, screen: SearchScreen, cancelsPrevious: Bool) {
        self.api = api
        self.screen = screen
        self.cancelsPrevious = cancelsPrevious
    }

    func type(_ query: String) {
        screen.query = query
        if cancelsPrevious { task?.cancel() }
        task = Task {
            do { try await Task.sleep(for: .milliseconds(300)) } catch { return }
            let results = await api.search(query)
            if cancelsPrevious && Task.isCancelled { return }
            if results != screen.query { screen.staleArrivals += 1 }
            screen.resultsQuery = results
            api.simulation.emit("search.show", results)
        }
    }
}
