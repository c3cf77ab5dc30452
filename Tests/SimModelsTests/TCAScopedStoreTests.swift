import SimCore
import SimModels
import SimTestSupport
import Testing

/// TCA's `store.scope(state:action:)`: a child view's store is a window on the root, whose one
/// reducer processes the child's actions (pointfreeco/swift-composable-architecture
/// `Sources/ComposableArchitecture/Store.swift`, `scope`).
@Suite struct TCAScopedStoreTests {
    private enum ChildAction: Equatable, Sendable { case increment }
    private enum Action: Equatable, Sendable {
        case open, close
        case child(ChildAction)
    }
    private struct State: Equatable {
        var child: Int?
        var log: [String] = []
    }

    private static let childCase = TCA.ActionCase<Action, ChildAction>(
        embed: { .child($0) }, extract: { if case .child(let action) = $0 { action } else { nil } })

    private func makeStore(_ sim: Simulation)
        -> TCA.Store<TCA.IfLet<TCA.Reduce<State, Action>, TCA.Reduce<Int, ChildAction>>>
    {
        let parent = TCA.Reduce<State, Action>("Parent") { state, action in
            switch action {
            case .open: state.log.append("open")
            case .close: state.log.append("close")
            case .child: state.log.append("child")
            }
            switch action {
            case .open: state.child = 0
            case .close: state.child = nil
            case .child: break
            }
            return .none
        }
        let child = TCA.Reduce<Int, ChildAction>("Child") { count, _ in
            count += 1
            return .none
        }
        return TCA.Store(
            sim, name: "root", initialState: State(), reducer: parent.ifLet(\.child, action: Self.childCase) { child })
    }

    @Test func aChildStoreSendsThroughTheRootAndReadsItsState() {
        let sink = MemorySink()
        let sim = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let store = makeStore(sim)
        let child = store.scope(state: { $0.child }, action: Self.childCase)
        var seen: [Int?] = []
        child.observe { seen.append($0) }
        sim.post(on: TCA.mainLane, "view") {
            store.send(.open)
            child.send(.increment)
            child.send(.increment)
            store.send(.close)
            child.send(.increment)  // the sheet is gone: the ifLet drops it
        }
        #expect(sim.run().verdict == .pass)
        #expect(child.state == nil)
        #expect(seen == [0, 1, 2, nil, nil])
        #expect(store.state.log == ["open", "child", "child", "close", "child"])
        #expect(PlayerElementsProbe.lines(sink, only: ["reducer.drop"]).count == 1)
    }
}
