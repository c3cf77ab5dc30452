import Dispatch
import SimCapture
import SimCore

/// `gcd-debounce`: a search field debounced with `DispatchWorkItem` and `asyncAfter` on the main queue
/// (300 ms); each search goes to a backend whose answer comes back on a global queue after a latency
/// the run chooses (40 ms or 600 ms), then hops to `main`. The user types "s", "sw" 100 ms later (which
/// cancels the pending "s" item), then "swi" at 500 ms, while the "sw" search is in flight.
///
/// Variants:
/// - `buggy`: every answer is shown: a slow "sw" answer arriving after the "swi" one wins.
/// - `fixed`: an answer is shown only when its query is still the field's text.
///
/// Oracles: `results-match-text` at the end; `cancelled-item-never-runs` always.
public enum GCDDebounce {
    /// The scenario, with variants `buggy` (default) and `fixed`.
    public static let scenario = Scenario(
        name: "gcd-debounce",
        summary: "GCD: a DispatchWorkItem debounce whose stale search answer arrives last and wins",
        variants: [
            .init("buggy", "every answer is shown when it arrives"),
            .init("fixed", "an answer is shown only while its query is still the field's text"),
        ],
        setUp: { simulation, variant in setUp(simulation, checksQuery: variant == "fixed") }
    )

    /// The field's state, touched only on the main queue.
    final class SearchField: @unchecked Sendable {
        let simulation: Simulation
        let checksQuery: Bool
        var text = ""
        var shown: String?
        var pending: DispatchWorkItem?
        var searched: [String] = []

        init(simulation: Simulation, checksQuery: Bool) {
            self.simulation = simulation
            self.checksQuery = checksQuery
        }

        /// A keystroke: the field's whole text after it.
        func type(_ newText: String) {
            text = newText
            pending?.cancel()
            let item = DispatchWorkItem { self.search(newText) }
            pending = item
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(300), execute: item)
        }

        private func search(_ query: String) {
            searched.append(query)
            let latency = simulation.choose(2, "backend.latency") == 0 ? 40 : 600
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(latency)) {
                let answer = "results(\(query))"
                DispatchQueue.main.async { self.show(answer, for: query) }
            }
        }

        /// Answers that arrived after the field's text had moved on.
        var staleArrivals = 0

        private func show(_ answer: String, for query: String) {
            if query != text { staleArrivals += 1 }
            if checksQuery && query != text { return }
            shown = answer
        }
    }

    static func setUp(_ simulation: Simulation, checksQuery: Bool) {
        guard DispatchCapturing.requireActive(simulation) else { return }
        let field = SearchField(simulation: simulation, checksQuery: checksQuery)
        DispatchQueue.main.async { field.type("s") }
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(100)) { field.type("sw") }
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(500)) { field.type("swi") }
        simulation.sometimes("stale-answer-arrives") { field.staleArrivals > 0 }
        simulation.always("cancelled-item-never-runs") {
            field.searched.contains("s") ? "the debounced search for \"s\" ran although \"sw\" cancelled it" : nil
        }
        simulation.atEnd("results-match-text") {
            let expected = "results(\(field.text))"
            guard field.shown != expected else { return nil }
            return "the field shows \"\(field.text)\" but the list shows \(field.shown ?? "nothing")"
        }
    }
}
