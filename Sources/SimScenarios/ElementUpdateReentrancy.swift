import SimCore
import SimModels

/// A Blueprint screen whose rows re-render the screen from `onDisappear`, racing a network refresh.
///
/// The list shows rows a…d and a footer counting removed rows. Once it appears, the user clears the
/// done rows (b and d, removed in an order the strategy picks); each row's `onDisappear` bumps the
/// count and sets a new element. Meanwhile a refresh comes back over the network (two hops) and
/// renames a row. `fixed` is Blueprint's host: lifecycle callbacks run after the pass, so their
/// re-render schedules a new pass. `buggy` is a naive host that runs them inside the pass and
/// clears its dirty flag afterwards: the re-render is lost unless a later pass happens to follow.
public enum ElementUpdateReentrancy {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "element-update-reentrancy",
        summary: "an onDisappear re-render requested during an update pass is lost — a race: fifo passes",
        variants: [
            .init("buggy", "naive host: callbacks inside the pass, dirty flag cleared after it"),
            .init("fixed", "Blueprint: callbacks after the pass, re-entrant requests deferred"),
        ],
        setUp: { simulation, variant in
            let screen = Screen(simulation, policy: variant == "fixed" ? .deferReentrant : .clearAfterPass)
            screen.start()
        })

    struct ListScreen: Element {
        var rows: [Row]
        var footer: Footer
        var onAppear: () -> Void

        var content: ElementContent {
            ElementContent(children: rows.map { ElementContent.Child($0, key: $0.id) } + [.init(footer)])
        }
        func backingViewDescription() -> ViewDescription? { ViewDescription("ScrollView", onAppear: onAppear) }
    }

    struct Row: Element {
        var id: String
        var text: String
        var onDisappear: () -> Void

        var content: ElementContent { .empty }
        func backingViewDescription() -> ViewDescription? {
            ViewDescription("RowView", content: text, disappearingTransition: .fade, onDisappear: onDisappear)
        }
    }

    struct Footer: ProxyElement {
        var text: String
        var elementRepresentation: any Element { Label(text: text) }
    }

    struct Label: Element {
        var text: String
        var content: ElementContent { .empty }
        func backingViewDescription() -> ViewDescription? { ViewDescription("UILabel", content: text) }
    }

    final class Screen {
        unowned let simulation: Simulation
        let view: BlueprintView
        var rows: [(id: String, text: String, done: Bool)] = [
            ("a", "Buy milk", false), ("b", "Call Bo", true), ("c", "Fix bike", false), ("d", "Pay rent", true),
        ]
        var removed: [String] = []
        var userStarted = false
        var refreshed = false

        init(_ simulation: Simulation, policy: BlueprintView.UpdatePolicy) {
            self.simulation = simulation
            view = BlueprintView(simulation, policy: policy)
        }

        // Elements hold their callbacks weakly: the view keeps the element, the screen keeps the view.
        func render() -> ListScreen {
            ListScreen(
                rows: rows.map { row in Row(id: row.id, text: row.text) { [weak self] in self?.disappeared(row.id) } },
                footer: Footer(text: "removed \(removed.count)"),
                onAppear: { [weak self] in self?.userCanAct() })
        }

        private func disappeared(_ id: String) {
            removed.append(id)
            view.element = render()
        }

        private func userCanAct() {
            guard !userStarted else { return }
            userStarted = true
            simulation.post(simulation.lane("user"), simulation.symbol("user.clearDone")) { [self] in
                rows.removeAll { $0.done }
                view.element = render()
            }
        }

        func start() {
            // The list is requested first; the refresh goes out right after, over two hops.
            view.element = render()
            let network = simulation.lane("network")
            simulation.post(network, simulation.symbol("net.request")) { [self] in
                simulation.post(network, simulation.symbol("net.inflight")) { [self] in
                    simulation.post(network, simulation.symbol("net.response")) { [self] in
                        if let index = rows.firstIndex(where: { $0.id == "a" }) { rows[index].text = "Buy oat milk" }
                        refreshed = true
                        view.element = render()
                    }
                }
            }
            simulation.atEnd("view-tree-matches-element-tree") { [self] in
                view.mismatch().map { "the view tree is out of step with the element tree: " + $0 }
            }
            simulation.sometimes("rows removed") { [self] in removed.count == 2 }
            simulation.sometimes("refresh applied") { [self] in refreshed && view.isSettled }
        }
    }
}
