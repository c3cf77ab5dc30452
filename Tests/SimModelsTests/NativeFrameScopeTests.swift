import SimCore
import SimModels
import SimTestSupport
import Testing

/// The frame-scope rule of nativeblocks/nativeblocks-core-sdk's Android runtime:
/// `platforms/android/runtime/core/src/main/java/io/nativeblocks/runtime/frame/FrameViewModel.kt`
/// builds its `ActionTree` with `coroutineScope = viewModelScope`, and `frame/ActionTree.kt` puts
/// that scope into every trigger's `ActionProps`; clearing the view model cancels the scope.
@Suite struct NativeFrameScopeTests {
    /// A frame whose FETCH handler launches in the frame's scope, waits 100 ms for a reply, writes
    /// `coupon` and runs its SUCCESS child SHOW; the frame is cleared after `clearAfter`.
    private func run(clearAfter: Duration?) -> (log: [String], state: NativeFrameState?, scope: NativeFrameScope?) {
        let log = ValueBox<[String]>([])
        let state = ValueBox<NativeFrameState?>(nil)
        let scope = ValueBox<NativeFrameScope?>(nil)
        _ = simulate { sim in
            let frameState = NativeFrameState(sim: sim)
            frameState.declare(NativeVariableModel(key: "coupon", value: ""))
            let frameScope = NativeFrameScope(sim: sim, name: "promo")
            let provider = NativeActionProvider()
            provider.provide(
                "FETCH",
                AsyncNativeAction(sim, lane: "io") { props in
                    log.value.append("fetch started")
                    props.coroutineScope?.resume(after: .milliseconds(100), on: "io", "fetch.reply") {
                        props.onVariableChange?(NativeVariableModel(key: "coupon", value: "SAVE10"))
                        props.succeed()
                    }
                })
            provider.provide("SHOW", SyncNativeAction { _ in log.value.append("show") })
            let tree = NativeActionTree(sim: sim, provider: provider, state: frameState, scope: frameScope)
            sim.atEnd("app-holds-tree") { withExtendedLifetime(tree) { nil } }
            state.value = frameState
            scope.value = frameScope
            let action = NativeActionModel(
                id: "1", key: "apply", event: "onClick",
                triggers: [
                    NativeActionTriggerModel(id: "fetch", keyType: "FETCH"),
                    NativeActionTriggerModel(id: "show", parentId: "fetch", keyType: "SHOW", then: .success),
                ])
            sim.post(on: "main", "click") { tree.dispatch(action, event: "onClick") }
            if let clearAfter {
                sim.after(clearAfter, on: sim.lane("main"), "frame.onCleared") { frameScope.cancel() }
            }
        }
        return (log.value, state.value, scope.value)
    }

    @Test func aFrameThatStaysRunsTheHandlerToTheEnd() {
        let (log, state, scope) = run(clearAfter: nil)
        #expect(log == ["fetch started", "show"])
        #expect(state?.value("coupon") == "SAVE10")
        #expect(scope?.skipped == [])
    }

    @Test func clearingTheFrameWhileTheHandlerWaitsDropsItsWritesAndChildren() {
        let (log, state, scope) = run(clearAfter: .milliseconds(50))
        #expect(log == ["fetch started"], "the suspended handler never resumes")
        #expect(state?.value("coupon") == "", "no write after the frame was cleared")
        #expect(scope?.skipped == ["fetch.reply"])
        #expect(scope?.isCancelled == true)
    }

    @Test func clearingTheFrameBeforeTheLaunchedBodyRunsCancelsItEntirely() {
        let log = ValueBox<[String]>([])
        let scope = ValueBox<NativeFrameScope?>(nil)
        _ = simulate { sim in
            let frameScope = NativeFrameScope(sim: sim)
            scope.value = frameScope
            let provider = NativeActionProvider()
            provider.provide("FETCH", AsyncNativeAction(sim, lane: "io") { _ in log.value.append("body") })
            let tree = NativeActionTree(
                sim: sim, provider: provider, state: NativeFrameState(sim: sim), scope: frameScope)
            sim.atEnd("app-holds-tree") { withExtendedLifetime(tree) { nil } }
            let action = NativeActionModel(
                id: "1", key: "apply", event: "onClick",
                triggers: [NativeActionTriggerModel(id: "fetch", keyType: "FETCH")])
            sim.post(on: "main", "click") {
                tree.dispatch(action, event: "onClick")
                // Cleared in the same turn: the launched body has not had its turn yet.
                frameScope.cancel()
            }
        }
        #expect(log.value == [])
        #expect(scope.value?.skipped == ["action.body"])
    }
}
