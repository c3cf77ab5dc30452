import SimCore
import SimModels

/// `search-stale-response`: a TCA search field whose results can belong to an older query.
///
/// The user types three keystrokes ("s", "sw", "swi"); each changes the query and starts a search
/// request (`.run`, latency chosen per request) made cancellable under one id. TCA registers a
/// `.cancellable` effect only when its task starts (`withTaskCancellation` runs inside the effect), so
/// when keystrokes arrive in a burst — queued on `main` before the previous request's task has started —
/// a `.cancel(id:)` misses the older request, and `cancelInFlight` runs in whichever request starts
/// *last*, which may be the older one: it then cancels the newest request. Either way a stale response
/// can be the last one displayed.
///
/// Variants:
/// - `buggy`: `.cancellable(id:, cancelInFlight: true)`, response applied unconditionally (the usual
///   pattern). Fails when the newest request starts before an older one, which then cancels it.
/// - `buggy-cancel`: `.merge(.cancel(id:), request.cancellable(id:))`, response applied
///   unconditionally. Fails when the cancel misses an older request that responds last.
/// - `checked-cancel-in-flight`: `cancelInFlight: true` plus a check of the query in the response. No
///   stale results are shown, but an older request starting late still cancels the newest one, whose
///   results then never arrive: the check alone does not make `cancelInFlight` safe.
/// - `fixed`: each response carries the query it answers and the reducer ignores one that no longer
///   matches the state (TCA's examples tag responses with what they answer, e.g. the Search example's
///   `forecastResponse(id, …)`); cancellation is only an optimisation, done with `.cancel(id:)`, which
///   runs synchronously in the keystroke's action and can only reach *older* requests that have
///   registered. The newest request is never cancelled and its response always wins.
///
/// Oracle: at the end, the displayed results are those of the latest query.
public enum SearchStaleResponse {
    /// The scenario, with variants `buggy` (default), `buggy-cancel`, `checked-cancel-in-flight`, `fixed`.
    public static let scenario = Scenario(
        name: "search-stale-response",
        summary: "TCA search: a stale response overwrites a newer one because .cancellable registers only "
            + "when its effect starts — a race: fifo passes",
        variants: Mode.allCases.map { Scenario.Variant($0.rawValue, $0.summary) },
        setUp: { simulation, variant in setUp(simulation, mode: Mode(rawValue: variant) ?? .buggy) }
    )

    /// The keystrokes, in order: each is the whole text of the field after it.
    static let keystrokes = ["s", "sw", "swi"]
    /// Pauses between keystrokes the user may take; 0 is a burst (queued on `main` together).
    static let typingGapsMilliseconds: [Int64] = [0, 60, 250]

    /// How the search reducer guards against stale responses.
    enum Mode: String, CaseIterable {
        case buggy
        case buggyCancel = "buggy-cancel"
        case checkedCancelInFlight = "checked-cancel-in-flight"
        case fixed

        var summary: String {
            switch self {
            case .buggy: "cancellable(id:, cancelInFlight: true); responses applied unconditionally"
            case .buggyCancel: "merge(.cancel(id:), request.cancellable(id:)); responses applied unconditionally"
            case .checkedCancelInFlight: "cancelInFlight plus a query check: the newest request can still be cancelled"
            case .fixed: "responses carry their query and stale ones are ignored; cancel only reaches older requests"
            }
        }

        var checksQuery: Bool { self == .checkedCancelInFlight || self == .fixed }
    }

    static func setUp(_ simulation: Simulation, mode: Mode) {
        let api = SearchClient(simulation: simulation)
        let store = TCA.Store(
            simulation, name: "search", initialState: SearchFeature.State(),
            reducer: SearchFeature(mode: mode, api: api))
        scheduleTyping(simulation, store: store)

        simulation.always("tca.bookkeeping") { store.invariantViolation() }
        simulation.atEnd("results-match-latest-query") {
            let state = store.state
            guard state.results != SearchClient.results(for: state.query) else { return nil }
            let shown = state.resultsQuery.map { "results for \"\($0)\"" } ?? "no results"
            return "the field shows \"\(state.query)\" but the list shows \(shown): \(state.results)"
        }
        simulation.sometimes("typing-burst")
        simulation.sometimes("cancel-missed-unstarted-request") { store.missedCancellations > 0 }
        simulation.sometimes("request-cancelled-in-flight") { store.cancelledEffects > 0 }
        simulation.sometimes("stale-results-shown") {
            store.state.resultsQuery.map { $0 != store.state.query } ?? false
        }
        if mode.checksQuery {
            simulation.sometimes("stale-response-ignored") { store.state.ignoredResponses > 0 }
        }
    }

    /// The user: keystrokes at times chosen by decisions; those at the same instant reach `main` together,
    /// in order, as a run loop delivers queued events.
    static func scheduleTyping(_ simulation: Simulation, store: TCA.Store<SearchFeature>) {
        var groups: [(time: Int64, queries: [String])] = []
        var time: Int64 = 0
        for (index, query) in keystrokes.enumerated() {
            if index > 0 {
                let gap = typingGapsMilliseconds[simulation.choose(typingGapsMilliseconds.count, "user.typing-gap")]
                time += gap * 1_000_000
            }
            if let last = groups.last, last.time == time {
                groups[groups.count - 1].queries.append(query)
            } else {
                groups.append((time, [query]))
            }
        }
        let user = simulation.lane("user")
        let main = simulation.lane(TCA.mainLane)
        let typed = simulation.symbol("view.queryChanged")
        for group in groups {
            simulation.schedule(at: group.time, on: user, "user.type") {
                if group.queries.count > 1 { simulation.reach("typing-burst") }
                for query in group.queries {
                    simulation.emit("input.type", "search-field", ["text": .text(query)])
                    simulation.post(main, typed) { store.send(.view(.queryChanged(query))) }
                }
            }
        }
    }
}

extension SearchStaleResponse {
    /// The search API: latency chosen per request, results a function of the query.
    struct SearchClient: Sendable {
        /// Latencies a request may take.
        static let latenciesMilliseconds: [Int64] = [30, 80, 150, 300]

        let simulation: Simulation

        static func results(for query: String) -> [String] { ["\(query) result 1", "\(query) result 2"] }

        /// Sleeps for the request's latency on the virtual clock, then returns the results.
        func search(_ query: String) async throws -> [String] {
            let latencies = Self.latenciesMilliseconds
            let latency = latencies[simulation.choose(latencies.count, "search.latency")]
            simulation.emit("net.request", "search", ["query": .text(query), "latencyMs": .int(latency)])
            try await simulation.clock.sleep(for: .milliseconds(latency))
            simulation.emit("net.response", "search", ["query": .text(query)])
            return Self.results(for: query)
        }
    }

    /// The search feature, with boundaries: the view changes the query, the feature receives responses.
    struct SearchFeature: BoundingReducer {
        struct State: Equatable {
            var query = ""
            var results: [String] = []
            /// The query the displayed results answer, if any are displayed.
            var resultsQuery: String?
            /// Responses dropped because their query was no longer the field's.
            var ignoredResponses = 0
        }

        enum Action: TCAFeatureAction {
            enum ViewAction: Equatable, Sendable { case queryChanged(String) }
            enum InternalAction: Equatable, Sendable { case searchResponse(query: String, results: [String]) }
            enum DelegateAction: Equatable, Sendable {}
            case view(ViewAction)
            case _internal(InternalAction)
            case delegate(DelegateAction)
        }

        enum CancelID { case search }

        let mode: Mode
        let api: SearchClient

        func reduce(into state: inout State, viewAction action: Action.ViewAction) -> TCA.Effect<Action> {
            switch action {
            case .queryChanged(let query):
                state.query = query
                let request = TCA.Effect<Action>.run(name: "search") { [api] send in
                    let results = try await api.search(query)
                    await send(._internal(.searchResponse(query: query, results: results)))
                }
                switch mode {
                case .buggy, .checkedCancelInFlight:
                    return request.cancellable(id: CancelID.search, cancelInFlight: true)
                case .buggyCancel, .fixed:
                    return .merge(.cancel(id: CancelID.search), request.cancellable(id: CancelID.search))
                }
            }
        }

        func reduce(into state: inout State, internalAction action: Action.InternalAction) -> TCA.Effect<Action> {
            switch action {
            case .searchResponse(let query, let results):
                if mode.checksQuery, query != state.query {
                    state.ignoredResponses += 1
                    return .none
                }
                state.results = results
                state.resultsQuery = query
                return .none
            }
        }
    }
}
