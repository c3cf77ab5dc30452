import SimCore
import SimModels

/// pointfreeco/swift-composable-architecture issue #3663 ("Unable to cancel effects when the view
/// is dismissed at the exact moment"; open).
///
/// A pushed child screen: `onAppear` starts an effect that sleeps 1s and sends `fetchResult1`;
/// `fetchResult1` starts a second effect that sleeps 1s, fetches and sends `fetchResult2` (the
/// issue's reducer). The user taps Back when the first result shows on screen (the view observes
/// the store; the tap is a user event that reaches `main` as its own job). Dismissal sets
/// the child state to nil and `ifLet` cancels the child's effects by id, but a `.cancellable`
/// effect registers only when its task starts: if Back lands after `fetchResult1` was reduced and
/// before the second effect's task started, the cancellation misses it and the dismissed screen's
/// request still runs. `buggy` is TCA as shipped (registration when the task starts); `fixed`
/// registers when the effect is returned, the behaviour the issue asks for (no upstream fix yet).
public enum TCADismissUnstartedEffect {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "tca-dismiss-unstarted-effect",
        summary:
            "a child dismissed between an action and the start of its effect keeps running that effect"
            + " (pointfreeco/swift-composable-architecture #3663) — a race: fifo passes",
        variants: [
            .init("buggy", "TCA as shipped: an effect registers for cancellation when its task starts"),
            .init("fixed", "registration when the effect is returned (what #3663 expects; not shipped)"),
        ],
        setUp: { simulation, variant in
            setUp(simulation, registration: variant == "fixed" ? .whenReturned : .whenStarted)
        })

    enum ChildAction: Equatable, Sendable { case onAppear, fetchResult1, fetchResult2 }
    struct ChildState: Equatable { var results = 0 }
    enum Action: Equatable, Sendable {
        case push
        case back
        case child(ChildAction)
    }
    struct State: Equatable { var child: ChildState? }

    /// What the child's second request did, read by the oracle.
    ///
    /// `@unchecked Sendable`: written by an effect task and by `main` jobs, all on the simulation's
    /// one thread.
    final class Probe: @unchecked Sendable {
        var backTapped = false
        var dismissed = false
        var requestsAfterDismiss = 0
    }

    static let childCase = TCA.ActionCase<Action, ChildAction>(
        embed: { .child($0) }, extract: { if case .child(let action) = $0 { action } else { nil } })

    static func child(_ clock: SimClock, _ probe: Probe) -> TCA.Reduce<ChildState, ChildAction> {
        TCA.Reduce("Child") { state, action in
            switch action {
            case .onAppear:
                return .run(name: "fetch1") { send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.fetchResult1)
                }
            case .fetchResult1:
                state.results += 1
                return .run(name: "fetch2") { send in
                    try await clock.sleep(for: .seconds(1))
                    if probe.dismissed { probe.requestsAfterDismiss += 1 }
                    await send(.fetchResult2)
                }
            case .fetchResult2:
                state.results += 1
                return .none
            }
        }
    }

    static func setUp(_ simulation: Simulation, registration: TCA.CancellationRegistration) {
        let probe = Probe()
        let parent = TCA.Reduce<State, Action>("Parent") { state, action in
            switch action {
            case .push: state.child = ChildState()
            case .back: state.child = nil
            case .child: break
            }
            return .none
        }
        let reducer = parent.ifLet(\.child, action: childCase, id: "detail") { child(simulation.clock, probe) }
        let store = TCA.Store(
            simulation, name: "app", initialState: State(), reducer: reducer, registration: registration)
        let main = simulation.lane(TCA.mainLane)
        simulation.post(main, simulation.symbol("user.push")) {
            store.send(.push)
            store.send(.child(.onAppear))
        }
        // The user taps Back as soon as the first result shows: the tap goes through the user lane
        // to main, racing the start of the effect that fetchResult1 returned.
        let user = simulation.lane("user")
        // Unowned: the simulation keeps the store (through the oracles), the store keeps this observer.
        store.observe { [unowned simulation, unowned store] state in
            guard state.child?.results == 1, !probe.backTapped else { return }
            probe.backTapped = true
            simulation.post(user, simulation.symbol("user.back")) {
                simulation.post(main, simulation.symbol("view.back")) {
                    probe.dismissed = true
                    store.send(.back)
                }
            }
        }

        simulation.always("tca.bookkeeping") { store.invariantViolation() }
        simulation.always("dismissed-child-does-no-work") {
            probe.requestsAfterDismiss == 0
                ? nil : "the dismissed child's fetch2 effect ran its request after Back (its cancellation missed it)"
        }
        simulation.sometimes("cancel missed an unstarted effect") { store.missedCancellations > 0 }
        simulation.sometimes("dismissed") { probe.dismissed && store.state.child == nil }
        simulation.sometimes("effect cancelled on dismissal") { store.cancelledEffects > 0 }
    }
}
