import SimCore
import SimModels
import SimTestSupport
import Testing

private enum EditAction: Equatable, Sendable { case text(String) }
private enum NotesAction: Equatable, Sendable {
    case close
    case editor(EditAction)
}
private struct NotesState: Equatable { var editor: String? = "draft" }

private let editorCase = TCA.ActionCase<NotesAction, EditAction>(
    embed: { .editor($0) }, extract: { if case .editor(let action) = $0 { action } else { nil } })

/// A binding write to a dismissed `ifLet` child: TCA before PR #1879 sends it and the `ifLet` drops
/// it as "a child action when child state was nil"; since, `IfLetStore` (now `IfLetCore.send` in
/// pointfreeco/swift-composable-architecture `Sources/ComposableArchitecture/Core.swift`:
/// `BindingLocal.isActive && isInvalid`) drops binding writes to a nil child; explicit sends still reach it.
@Suite struct TCABindingWriteTests {
    private func run(ignores: Bool, explicit: Bool = false) -> (dropped: Int, ignored: Int) {
        let sink = MemorySink()
        let sim = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let parent = TCA.Reduce<NotesState, NotesAction>("Notes") { state, action in
            if action == .close { state.editor = nil }
            return .none
        }
        let child = TCA.Reduce<String, EditAction>("Editor") { text, action in
            if case .text(let new) = action { text = new }
            return .none
        }
        let store = TCA.Store(
            sim, name: "notes", initialState: NotesState(),
            reducer: parent.ifLet(\.editor, action: editorCase, id: "editor") { child })
        let sheet = store.scope(state: \.editor, action: editorCase, ignoresBindingWritesToNilState: ignores)
        sim.post(on: TCA.mainLane, "close then write") {
            store.send(.close)
            if explicit { sheet.send(.text("late")) } else { sheet.sendBinding(.text("late")) }
        }
        _ = sim.run()
        return (store.droppedActions, ReducersTestSupport.lines(sink, kind: "store.ignoreBinding").count)
    }

    @Test func beforePR1879ABindingWriteToANilChildIsADroppedChildAction() {
        #expect(run(ignores: false) == (1, 0))
    }

    @Test func sincePR1879TheScopedStoreDropsItAndExplicitSendsStillReachTheIfLet() {
        #expect(run(ignores: true) == (0, 1))
        #expect(run(ignores: true, explicit: true) == (1, 0))
    }
}
