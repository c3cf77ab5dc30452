import SimCore
import SimModels
import SimTestSupport

// Small features the reducer tests run on the model. Each exists to make one rule observable.

/// Records every action it processes; its effects are what a test gives it.
enum TCALogAction: Equatable, Sendable {
    case start, a, b, c
}

/// The state of `TCALogAction` features: the actions in the order they were processed.
struct TCALogState: Equatable {
    var log: [String] = []
}

/// A reducer that logs each action and returns `effects[action]` (or nothing).
func tcaLoggingReducer(_ effects: @escaping (TCALogAction) -> TCA.Effect<TCALogAction>)
    -> TCA.Reduce<TCALogState, TCALogAction>
{
    TCA.Reduce("Log") { state, action in
        state.log.append("\(action)")
        return effects(action)
    }
}

/// A child feature: `close` marks it closed and tells its parent; `load` starts a slow effect.
struct TCAChildFeature: BoundingReducer {
    struct State: Equatable {
        var closed = false
        var loads = 0
    }

    enum Action: TCAFeatureAction {
        enum ViewAction: Equatable, Sendable { case close, load }
        enum InternalAction: Equatable, Sendable { case loaded }
        enum DelegateAction: Equatable, Sendable { case didClose }
        case view(ViewAction)
        case _internal(InternalAction)
        case delegate(DelegateAction)
    }

    let clock: SimClock

    func reduce(into state: inout State, viewAction action: Action.ViewAction) -> TCA.Effect<Action> {
        switch action {
        case .close:
            state.closed = true
            return .send(.delegate(.didClose))
        case .load:
            return .run(name: "load") { [clock] send in
                try await clock.sleep(for: .milliseconds(100))
                await send(._internal(.loaded))
            }
        }
    }

    func reduce(into state: inout State, internalAction action: Action.InternalAction) -> TCA.Effect<Action> {
        state.loads += 1
        return .none
    }
}

/// A parent with a scoped child (always present) and an optional child (`ifLet`), both reached through
/// internal actions, as tca-boundaries recommends.
struct TCAParentFeature: ComposedBoundingReducer {
    struct State: Equatable {
        var scoped = TCAChildFeature.State()
        var child: TCAChildFeature.State?
        var log: [String] = []
    }

    enum Action: TCAFeatureAction {
        enum ViewAction: Equatable, Sendable { case open }
        enum InternalAction: Equatable, Sendable {
            case scoped(TCAChildFeature.Action)
            case child(TCAChildFeature.Action)
        }
        enum DelegateAction: Equatable, Sendable {}
        case view(ViewAction)
        case _internal(InternalAction)
        case delegate(DelegateAction)
    }

    static let scopedCase = TCA.ActionCase<Action.InternalAction, TCAChildFeature.Action>(
        embed: { .scoped($0) }, extract: { if case .scoped(let a) = $0 { a } else { nil } })
    static let childCase = TCA.ActionCase<Action.InternalAction, TCAChildFeature.Action>(
        embed: { .child($0) }, extract: { if case .child(let a) = $0 { a } else { nil } })

    let clock: SimClock

    var body: some TCAReducer<State, Action> {
        TCA.Scope(state: \.scoped, internalAction: Self.scopedCase) { TCAChildFeature(clock: clock) }
        coreReducer.ifLet(\.child, internalAction: Self.childCase) { TCAChildFeature(clock: clock) }
    }

    func reduce(into state: inout State, viewAction action: Action.ViewAction) -> TCA.Effect<Action> {
        state.child = TCAChildFeature.State()
        return .none
    }

    func reduce(into state: inout State, internalAction action: Action.InternalAction) -> TCA.Effect<Action> {
        switch action {
        case .scoped(.view(.close)):
            state.log.append("parent saw scoped closed=\(state.scoped.closed)")
        case .child(.view(.close)):
            state.log.append("parent saw child closed=\(state.child?.closed == true)")
            state.child = nil
        case .child(.delegate(.didClose)):
            state.log.append("parent got didClose")
        default:
            break
        }
        return .none
    }
}

/// A feature that records which of its three `reduce` functions ran; delegate actions use the default.
struct TCADispatchFeature: BoundingReducer {
    struct State: Equatable {
        var calls: [String] = []
    }

    enum Action: TCAFeatureAction {
        enum ViewAction: Equatable, Sendable { case tap }
        enum InternalAction: Equatable, Sendable { case loaded }
        enum DelegateAction: Equatable, Sendable { case done }
        case view(ViewAction)
        case _internal(InternalAction)
        case delegate(DelegateAction)
    }

    func reduce(into state: inout State, viewAction action: Action.ViewAction) -> TCA.Effect<Action> {
        state.calls.append("view:\(action)")
        return .none
    }

    func reduce(into state: inout State, internalAction action: Action.InternalAction) -> TCA.Effect<Action> {
        state.calls.append("internal:\(action)")
        return .none
    }
}

/// A search-like feature: `search(q)` starts a cancellable request, `stop` cancels it.
struct TCARequestFeature: TCAReducer {
    enum Action: Equatable, Sendable {
        case search(String, cancelInFlight: Bool)
        case searchAndCancel(String)
        case stop
        case response(String)
    }

    struct State: Equatable {
        var responses: [String] = []
    }

    enum CancelID { case request }

    let clock: SimClock
    let latency: Duration
    /// Set when a request's sleep ended with a cancellation error.
    let sawCancellation: ReducersTestSupport.Box<Int>

    func request(_ query: String) -> TCA.Effect<Action> {
        .run(name: "request") { [clock, latency, sawCancellation] send in
            do {
                try await clock.sleep(for: latency)
            } catch {
                sawCancellation.value += 1
                throw error
            }
            await send(.response(query))
        }
    }

    func reduce(into state: inout State, action: Action) -> TCA.Effect<Action> {
        switch action {
        case .search(let query, let cancelInFlight):
            return request(query).cancellable(id: CancelID.request, cancelInFlight: cancelInFlight)
        case .searchAndCancel(let query):
            return .merge(request(query).cancellable(id: CancelID.request), .cancel(id: CancelID.request))
        case .stop:
            return .cancel(id: CancelID.request)
        case .response(let query):
            state.responses.append(query)
            return .none
        }
    }
}

/// A counter whose effects a test store must account for.
struct TCACounterFeature: BoundingReducer {
    struct State: Equatable {
        var count = 0
        var isSaving = false
    }

    enum Action: TCAFeatureAction {
        enum ViewAction: Equatable, Sendable { case increment, save, startTimer }
        enum InternalAction: Equatable, Sendable { case saved }
        enum DelegateAction: Equatable, Sendable {}
        case view(ViewAction)
        case _internal(InternalAction)
        case delegate(DelegateAction)
    }

    let clock: SimClock

    func reduce(into state: inout State, viewAction action: Action.ViewAction) -> TCA.Effect<Action> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .save:
            state.isSaving = true
            return .run(name: "save") { [clock] send in
                try await clock.sleep(for: .milliseconds(200))
                await send(._internal(.saved))
            }
        case .startTimer:
            return .run(name: "timer") { [clock] _ in try await clock.sleep(for: .seconds(10)) }
        }
    }

    func reduce(into state: inout State, internalAction action: Action.InternalAction) -> TCA.Effect<Action> {
        state.isSaving = false
        return .none
    }
}
