import SimCore
import SimModels
import SimTestSupport
import Testing

/// A feature whose `.tap` effect sends `.response1`, whose effect sleeps 1 s and sends `.response2`:
/// the shape of PR #3499's `TaskTreeFeature` (pointfreeco/swift-composable-architecture
/// `Tests/ComposableArchitectureTests/StoreTests.swift`), written against the model.
private enum TreeAction: Equatable, Sendable { case tap, response1, response2 }

private func treeStore(_ sim: Simulation, taskTree: TCA.TaskTree) -> TCA.Store<TCA.Reduce<Int, TreeAction>> {
    let clock = sim.clock
    let reducer = TCA.Reduce<Int, TreeAction>("TaskTree") { count, action in
        switch action {
        case .tap:
            return .run { send in await send(.response1) }
        case .response1:
            count = 42
            return .run { send in
                try await clock.sleep(for: .seconds(1))
                await send(.response2)
            }
        case .response2:
            count = 1729
            return .none
        }
    }
    return TCA.Store(sim, name: "tree", initialState: 0, reducer: reducer, taskTree: taskTree)
}

@Suite struct TCAStoreTaskTests {
    /// `Core.swift`: the task `send` returns holds the effects of the actions its effects sent, and
    /// cancelling it cancels them (PR #3499: "Cancelling the root effect should not cancel the child
    /// effects" is a known issue there; `.rootEffectsOnly` is what it expects).
    @Test(arguments: [TCA.TaskTree.includesSentActions, .rootEffectsOnly])
    func cancellingTheReturnedTaskCancelsTheTreeOfSentActions(_ tree: TCA.TaskTree) {
        let sim = Simulation(seed: 0, strategy: FIFOStrategy())
        let store = treeStore(sim, taskTree: tree)
        let task = ReducersTestSupport.Box<TCA.StoreTask?>(nil)
        let main = sim.lane(TCA.mainLane)
        sim.post(main, sim.symbol("view.task")) { task.value = store.send(.tap) }
        sim.after(.milliseconds(100), on: main, "view.disappear") {
            #expect(store.state == 42)
            task.value?.cancel()
        }
        let result = sim.run()
        #expect(result.verdict == .pass)
        #expect(task.value?.isCancelled == true)
        #expect(store.state == (tree == .includesSentActions ? 42 : 1729))
        #expect(task.value?.effectCount == (tree == .includesSentActions ? 2 : 1))
    }

    @Test func aSendThatStartsNoEffectReturnsAnEmptyTask() {
        let sim = Simulation(seed: 0, strategy: FIFOStrategy())
        let store = treeStore(sim, taskTree: .includesSentActions)
        let task = ReducersTestSupport.Box<TCA.StoreTask?>(nil)
        sim.post(on: TCA.mainLane, "view.tap") { task.value = store.send(.response2) }
        _ = sim.run()
        #expect(task.value?.effectCount == 0)
        #expect(store.state == 1729)
    }

    /// `Core.swift` reports a `store.send` made while an action is being processed ("Reentrant
    /// actions are undefined"): an issue, hence a failed test; the model fails the run.
    @Test func aStoreSendFromInsideAReducerFailsTheRun() {
        let sim = Simulation(seed: 0, strategy: FIFOStrategy())
        let holder = ReducersTestSupport.Box<TCA.Store<TCA.Reduce<Int, TreeAction>>?>(nil)
        let reducer = TCA.Reduce<Int, TreeAction>("Reentrant") { count, action in
            count += 1
            if action == .tap { holder.value?.send(.response2) }
            return .none
        }
        let store = TCA.Store(sim, name: "reentrant", initialState: 0, reducer: reducer)
        holder.value = store
        sim.post(on: TCA.mainLane, "view.tap") { store.send(.tap) }
        let result = sim.run()
        guard case .fail(let oracle, let message) = result.verdict else {
            Issue.record("expected a failure, got \(result.verdict)")
            return
        }
        #expect(oracle == "tca.reentrant-send")
        #expect(message.contains("response2"))
        #expect(store.state == 2, "the reentrant action is still buffered and processed, as TCA does")
    }
}
