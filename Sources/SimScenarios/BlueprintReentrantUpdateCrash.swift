import SimCore
import SimModels

/// square/Blueprint PR #618 ("fix: defer reentrant BlueprintView updates"): before it,
/// `updateViewHierarchyIfNeeded()` began with `precondition(!isInsideUpdate, "Reentrant updates are
/// not supported in BlueprintView…")`, and a UIKit safe-area callback fired synchronously while a
/// backing view was attached or laid out could force a nested pass: the app crashed. The PR defers
/// such an update to a later main turn (CHANGELOG: "instead of crashing with a 'Reentrant updates are
/// not supported' precondition failure").
///
/// A screen whose header is a keyboard reader (the shape of the production crash): when its backing
/// view is applied during a pass and sees a keyboard frame it has not applied yet, it changes the
/// safe-area insets (`safeAreaInsetsDidChange`) and forces a layout (`layoutIfNeeded`). The keyboard
/// comes up (its frame changes at once, its notification reaches `main` as a later job) while a
/// network response re-renders the list, both at 100ms. If the response's pass runs between the
/// frame change and the notification, the header applies the new frame inside the pass. `buggy`
/// (Blueprint before #618) traps: a crash finding. `fixed` (#618) defers the nested update.
public enum BlueprintReentrantUpdateCrash {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "blueprint-reentrant-update-crash",
        summary:
            "a safe-area change during an update pass forces a nested pass: 'Reentrant updates are not supported'"
            + " (square/Blueprint PR #618) — deterministic in the app; here fifo moves the keyboard outside the pass",
        variants: [
            .init("buggy", "Blueprint before PR #618: a nested pass trips the precondition (the run traps)"),
            .init("fixed", "PR #618: the nested update is deferred to a later main turn"),
        ],
        setUp: { simulation, variant in
            Screen(simulation, policy: variant == "fixed" ? .deferReentrant : .trapReentrant).start()
        })

    struct Page: Element {
        var header: KeyboardReader
        var rows: [String]
        var content: ElementContent {
            ElementContent(
                children: [ElementContent.Child(header, key: "header")]
                    + rows.map { ElementContent.Child(Row(text: $0), key: $0) })
        }
        func backingViewDescription() -> ViewDescription? { ViewDescription("ScrollView") }
    }

    struct KeyboardReader: Element {
        var title: String
        var onApply: () -> Void
        var content: ElementContent { .empty }
        func backingViewDescription() -> ViewDescription? {
            ViewDescription("KeyboardReaderView", content: title, onApply: onApply)
        }
    }

    struct Row: Element {
        var text: String
        var content: ElementContent { .empty }
        func backingViewDescription() -> ViewDescription? { ViewDescription("RowView", content: text) }
    }

    final class Screen {
        unowned let simulation: Simulation
        let view: BlueprintView
        var rows = ["Loading…"]
        /// The keyboard's frame height as UIKit reports it now.
        var keyboardHeight = 0
        /// The inset the header last applied to the safe area.
        var appliedInset = 0

        init(_ simulation: Simulation, policy: BlueprintView.UpdatePolicy) {
            self.simulation = simulation
            view = BlueprintView(simulation, policy: policy)
        }

        func render() -> Page {
            Page(header: KeyboardReader(title: "Cart") { [weak self] in self?.readKeyboard() }, rows: rows)
        }

        /// The keyboard reader: a new frame changes the safe area, and it wants its layout now.
        private func readKeyboard() {
            guard keyboardHeight != appliedInset else { return }
            appliedInset = keyboardHeight
            simulation.emit("keyboard.inset", "header", ["inset": .int(appliedInset)])
            view.safeAreaInsetsDidChange()
            view.layoutIfNeeded()
        }

        func start() {
            view.element = render()
            let main = simulation.lane("main")
            // The user focuses the search field: the keyboard's frame changes now, and UIKit
            // delivers the notification on a later main turn.
            simulation.after(.milliseconds(100), on: simulation.lane("keyboard"), "keyboard.frame") { [self] in
                keyboardHeight = 300
                simulation.emit("keyboard.frame", "", ["height": .int(keyboardHeight)])
                simulation.post(main, simulation.symbol("keyboard.willShow")) { [self] in
                    // The reader observes the notification: outside any pass, its forced layout is
                    // an ordinary one.
                    readKeyboard()
                }
            }
            simulation.after(.milliseconds(100), on: simulation.lane("network"), "net.response") { [self] in
                rows = ["Coffee", "Bagel", "Juice"]
                simulation.post(main, simulation.symbol("list.update")) { [self] in view.element = render() }
            }
            simulation.atEnd("view-tree-matches-element-tree") { [self] in
                view.mismatch().map { "the view tree is out of step with the element tree: " + $0 }
            }
            simulation.atEnd("keyboard-inset-applied") { [self] in
                appliedInset == keyboardHeight && view.isSettled
                    ? nil : "the header shows inset \(appliedInset) for a keyboard of height \(keyboardHeight)"
            }
            simulation.sometimes("safe area changed inside a pass") { [self] in view.deferredCount > 0 }
            simulation.sometimes("safe area changed between passes") { [self] in
                appliedInset == 300 && view.deferredCount == 0
            }
        }
    }
}
