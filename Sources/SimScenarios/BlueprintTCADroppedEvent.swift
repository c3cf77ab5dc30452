import SimCore
import SimModels

/// Two systems on one screen: a Blueprint list rendered from a TCA store.
///
/// The view observes the store and sets a new element after each batch of actions; Blueprint applies
/// it at the next layout pass (a later `main` job), and until then each native row keeps the event
/// closure of the previous render (square/Blueprint issue #13, "Events can be dropped between
/// updates", open). The shopping list shows Milk, Eggs, Bread; a refresh effect comes back at 100ms
/// with a new item on top; at the same moment the user taps Remove on the row showing Milk. If the
/// tap lands after the store changed and before the pass, the row's closure is the old render's.
/// `buggy` rows send `.removeTapped(index:)` (the position at render time): the stale index now
/// names another item and the wrong one is removed. `fixed` rows send `.removeTapped(id:)`, as TCA
/// recommends for collections (`IdentifiedArray`, `forEach` by id): a stale closure still names the
/// row the user saw.
public enum BlueprintTCADroppedEvent {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "blueprint-tca-dropped-event",
        summary:
            "a tap between a TCA state change and Blueprint's next pass runs the previous render's closure"
            + " and removes the wrong row (square/Blueprint #13 with a TCA store) — a race: fifo passes",
        variants: [
            .init("buggy", "rows send the index they had at render time"),
            .init("fixed", "rows send their item's id (TCA's IdentifiedArray guidance)"),
        ],
        setUp: { simulation, variant in setUp(simulation, byID: variant == "fixed") })

    struct Item: Equatable, Sendable {
        var id: Int
        var name: String
    }

    enum Action: Equatable, Sendable {
        case onAppear
        case refreshed([Item])
        case removeTapped(index: Int)
        case removeTappedID(Int)
    }

    struct State: Equatable {
        var items = [Item(id: 1, name: "Milk"), Item(id: 2, name: "Eggs"), Item(id: 3, name: "Bread")]
        var removed: [String] = []
    }

    static func reducer(_ clock: SimClock) -> TCA.Reduce<State, Action> {
        TCA.Reduce("ShoppingList") { state, action in
            switch action {
            case .onAppear:
                return .run(name: "refresh") { send in
                    try await clock.sleep(for: .milliseconds(100))
                    await send(.refreshed([Item(id: 4, name: "Coffee")]))
                }
            case .refreshed(let new):
                state.items = new + state.items
            case .removeTapped(let index):
                guard state.items.indices.contains(index) else { break }
                state.removed.append(state.items.remove(at: index).name)
            case .removeTappedID(let id):
                guard let index = state.items.firstIndex(where: { $0.id == id }) else { break }
                state.removed.append(state.items.remove(at: index).name)
            }
            return .none
        }
    }

    struct List: Element {
        var rows: [Row]
        var content: ElementContent { ElementContent(children: rows.map { ElementContent.Child($0, key: "\($0.id)") }) }
        func backingViewDescription() -> ViewDescription? { ViewDescription("ScrollView") }
    }

    struct Row: Element {
        var id: Int
        var name: String
        var onRemove: () -> Void
        var content: ElementContent { .empty }
        func backingViewDescription() -> ViewDescription? {
            ViewDescription("RowView", content: name, onEvent: { event in if event == "remove" { onRemove() } })
        }
    }

    private final class Record {
        var tapped: String?
        var tappedBeforeRefresh = false
    }

    static func setUp(_ simulation: Simulation, byID: Bool) {
        let store = TCA.Store(simulation, name: "list", initialState: State(), reducer: reducer(simulation.clock))
        let view = BlueprintView(simulation)
        let record = Record()
        // The oracles (kept by the simulation) hold the store and the view; everything else refers
        // to them unowned, so no cycle outlives the run.
        func render(_ state: State) -> List {
            List(
                rows: state.items.enumerated().map { index, item in
                    Row(id: item.id, name: item.name) { [unowned store] in
                        store.send(byID ? .removeTappedID(item.id) : .removeTapped(index: index))
                    }
                })
        }
        store.observe { state in view.element = render(state) }
        view.element = render(store.state)
        let main = simulation.lane(TCA.mainLane)
        simulation.post(main, simulation.symbol("view.onAppear")) { [unowned store] in store.send(.onAppear) }
        // The user taps Remove on the row that shows Milk, as the refresh comes back.
        simulation.after(.milliseconds(100), on: simulation.lane("user"), "user.tap") { [unowned simulation] in
            simulation.post(main, simulation.symbol("row.remove")) { [unowned view, unowned store] in
                var milk: NativeView?
                view.root.traverse { if $0.viewType == "RowView", $0.content == "Milk" { milk = $0 } }
                guard let milk else { return }
                record.tapped = milk.content
                record.tappedBeforeRefresh = store.state.items.count == 3
                if !view.isSettled { simulation.reach("tap while a pass is pending") }
                simulation.emit("row.tap", milk.content, ["serial": .int(milk.serial)])
                milk.send("remove")
            }
        }

        simulation.always("tca.bookkeeping") { store.invariantViolation() }
        simulation.atEnd("removes-the-tapped-row") {
            guard let tapped = record.tapped else { return "the user never tapped Milk" }
            let removed = store.state.removed
            return removed == [tapped] ? nil : "the user tapped Remove on '\(tapped)' but the list removed \(removed)"
        }
        simulation.atEnd("view-tree-matches-element-tree") {
            view.mismatch().map { "the view tree is out of step with the element tree: " + $0 }
        }
        simulation.sometimes("tap before the refresh") { record.tappedBeforeRefresh }
        simulation.sometimes("tap while a pass is pending")
    }
}
