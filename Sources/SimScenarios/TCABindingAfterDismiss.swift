import SimCore
import SimModels

/// pointfreeco/swift-composable-architecture issue #625 ("`ViewStore.binding` firing when state is
/// nil"), fixed by PR #1879 ("`IfLetStore`: ignore view store binding writes to `nil` state"):
/// "When a view is dismissed, and the parent nils the child's state, an `optional()` reducer will
/// receive actions from child's view binding even if the child state is `nil`".
///
/// A notes app presents an editor sheet (an `ifLet` child) whose text field is bound to the child's
/// text. The user taps Close while the field is still editing; as the sheet goes away, SwiftUI
/// flushes the field's binding. The tap and the flush reach `main` in either order: binding first
/// (fifo's order), the write lands on the editor and then Close dismisses it; Close first, `buggy`
/// (before PR #1879) sends the binding write to the root, where the `ifLet` finds no child state
/// and TCA reports "received a child action when child state was nil" — a failed test, a runtime
/// warning in the app. `fixed` (PR #1879): the scoped store drops a binding write to a nil child.
public enum TCABindingAfterDismiss {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "tca-binding-after-dismiss",
        summary:
            "a dismissed sheet's text-field binding writes to its nil child state"
            + " (pointfreeco/swift-composable-architecture #625, PR #1879) — a race: fifo passes",
        variants: [
            .init("buggy", "before PR #1879: the binding write reaches the ifLet after the parent nils the child"),
            .init("fixed", "PR #1879: a binding write to a nil child state is dropped by the scoped store"),
        ],
        setUp: { simulation, variant in setUp(simulation, ignoresBindingWrites: variant == "fixed") })

    enum EditorAction: Equatable, Sendable { case textChanged(String) }
    struct EditorState: Equatable { var text = "" }
    enum Action: Equatable, Sendable {
        case closeTapped
        case editor(EditorAction)
    }
    struct State: Equatable {
        var editor: EditorState? = EditorState(text: "Groceries")
        var closed = false
    }

    static let editorCase = TCA.ActionCase<Action, EditorAction>(
        embed: { .editor($0) }, extract: { if case .editor(let action) = $0 { action } else { nil } })

    static func setUp(_ simulation: Simulation, ignoresBindingWrites: Bool) {
        let parent = TCA.Reduce<State, Action>("Notes") { state, action in
            if action == .closeTapped {
                state.editor = nil
                state.closed = true
            }
            return .none
        }
        let editor = TCA.Reduce<EditorState, EditorAction>("Editor") { state, action in
            if case .textChanged(let text) = action { state.text = text }
            return .none
        }
        let store = TCA.Store(
            simulation, name: "notes", initialState: State(),
            reducer: parent.ifLet(\.editor, action: editorCase, id: "editor") { editor })
        let sheet = store.scope(
            state: \.editor, action: editorCase, ignoresBindingWritesToNilState: ignoresBindingWrites)
        let main = simulation.lane(TCA.mainLane)
        // Two events that each hop to main: the Close tap, and the field flushing its binding as the
        // sheet is dismissed (the flush is what SwiftUI does; the order is not the app's to choose).
        simulation.post(on: "swiftui.textField", "field.endEditing") {
            simulation.post(main, simulation.symbol("binding.set")) { sheet.sendBinding(.textChanged("Groceries!")) }
        }
        simulation.post(on: "user.tap", "close.tap") {
            simulation.post(main, simulation.symbol("view.close")) { store.send(.closeTapped) }
        }

        simulation.always("tca.bookkeeping") { store.invariantViolation() }
        simulation.always("no-child-action-on-nil-state") {
            store.droppedActions == 0
                ? nil
                : "an ifLet received a child action when child state was nil (a binding write of the dismissed sheet)"
        }
        simulation.sometimes("sheet closed") { store.state.closed }
        simulation.sometimes("binding write landed before Close") {
            store.state.closed == false && store.state.editor?.text == "Groceries!"
        }
    }
}
