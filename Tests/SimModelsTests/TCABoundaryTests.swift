import SimCore
import SimModels
import SimTestSupport
import Testing

/// bocato/tca-boundaries: a parent reacts only to its child's delegate actions. The child here
/// closes itself with a view action and tells its parent with a delegate one.
private enum Child {
    enum Action: TCAFeatureAction {
        enum ViewAction: Equatable, Sendable { case close }
        enum InternalAction: Equatable, Sendable { case closed }
        enum DelegateAction: Equatable, Sendable { case didClose }
        case view(ViewAction)
        case _internal(InternalAction)
        case delegate(DelegateAction)
    }
}

private enum ParentAction: Equatable, Sendable { case child(Child.Action) }
private struct ParentState: Equatable { var log: [String] = [] }

private let childCase = TCA.ActionCase<ParentAction, Child.Action>(
    embed: { .child($0) }, extract: { if case .child(let action) = $0 { action } else { nil } })

/// Runs `actions` through a parent whose own reducer logs the child actions it `reactsTo`.
private func run(reactsTo: @escaping (Child.Action) -> Bool, _ actions: [Child.Action]) -> RunResult {
    let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
    let parent = TCA.Reduce<ParentState, ParentAction>("Parent") { state, action in
        if case .child(let child) = action, reactsTo(child) { state.log.append("\(child)") }
        return .none
    }
    let store = TCA.Store(
        simulation, name: "app", initialState: ParentState(),
        reducer: parent.checkingBoundary(of: childCase, name: "Parent"))
    simulation.post(on: TCA.mainLane, "view") { for action in actions { store.send(.child(action)) } }
    return simulation.run()
}

@Suite struct TCABoundaryTests {
    @Test func aParentReactingOnlyToDelegateActionsPasses() {
        let result = run(
            reactsTo: { $0 == .delegate(.didClose) }, [.view(.close), ._internal(.closed), .delegate(.didClose)])
        #expect(result.verdict == .pass)
    }

    @Test func aParentReactingToItsChildsInternalActionFailsTheBoundaryOracle() {
        let result = run(reactsTo: { $0 == ._internal(.closed) }, [._internal(.closed)])
        guard case .fail(let oracle, let message) = result.verdict else {
            Issue.record("expected a boundary failure, got \(result.verdict)")
            return
        }
        #expect(oracle == "tca.boundary")
        #expect(message.contains("internal action"))
    }

    @Test func aParentReactingToItsChildsViewActionFailsToo() {
        let result = run(reactsTo: { $0 == .view(.close) }, [.view(.close)])
        #expect(result.verdict.isFailure)
    }
}
