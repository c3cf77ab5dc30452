import SimCore
import SimModels

// Scenarios a user writes in their own package, one per model, with public API only (no
// `@testable`): the shape issue #12 asked to be possible from outside.

/// Player: Pay races the keyboard's Done; the input is created by the session and not kept by the
/// scenario past its typing job (the session owns it).
enum PlayerCheckout {
    static let scenario = Scenario(
        name: "user-player-checkout", summary: "the order leaves without the typed promo code",
        variants: [.init("buggy", "Pay runs directly"), .init("fixed", "Pay commits pending input first")]
    ) { simulation, variant in
        let player = PlayerSession(
            simulation, data: ["promo": ""],
            states: [
                PlayerFlowState("FORM", view: "form", transitions: ["pay": "DONE"]), PlayerFlowState("DONE", view: nil),
            ],
            views: ["form": ["promo"]])
        let pay = player.action("pay", value: "pay")
        let sent = Box<String?>(nil)
        player.flow.onTransition { _, state in if state.name == "DONE" { sent.value = player.data.get("promo") } }
        do {
            let input = player.input("promo", binding: "promo")
            simulation.after(.milliseconds(10), on: simulation.lane("keyboard"), "type") {
                input.focus()
                input.type("SAVE10")
            }
            simulation.after(.milliseconds(20), on: simulation.lane("keyboard"), "done") { input.blur() }
        }
        simulation.after(.milliseconds(20), on: simulation.lane("touch"), "pay") {
            if variant == "fixed" { pay.commitCallbacksThenCall() } else { pay.run() }
        }
        simulation.atEnd("order-has-promo") { sent.value == "SAVE10" ? nil : "sent \(sent.value ?? "nothing")" }
        player.start()
    }
}

/// Blueprint: two rows, updated from a job; the oracle reads the live views and lifecycle counts.
enum BlueprintRows {
    struct Row: Element {
        var text: String
        var children: [ElementContent.Child] = []
        var content: ElementContent { ElementContent(children: children) }
        func backingViewDescription() -> ViewDescription? {
            ViewDescription("RowView", content: text, onAppear: {})
        }
    }

    static let scenario = Scenario(
        name: "user-blueprint-rows", summary: "the view tree shows the element tree",
        variants: [.init("only", "one version")]
    ) { simulation, _ in
        let view = BlueprintView(simulation)
        simulation.post(on: "main", "render") {
            view.element = Row(text: "list", children: [.init(Row(text: "a")), .init(Row(text: "b"))])
            view.layoutIfNeeded()
        }
        simulation.atEnd("views-match") {
            if let mismatch = view.mismatch() { return mismatch }
            let paths = view.liveViews().map(\.path)
            guard paths == ["", "Row.1", "Row.2"] else { return "live views \(paths)" }
            return view.appearCounts["Row.2"] == 1 ? nil : "Row.2 appeared \(view.appearCounts["Row.2"] ?? 0) times"
        }
    }
}

/// TCA: a parent with an optional child composed with `TCA.IfLet`'s public initializer; a child
/// action sent after dismissal is dropped and recorded.
enum TCASheet {
    enum Action: Equatable, Sendable {
        case open, close
        case child(Int)
    }
    struct State: Equatable {
        var child: Int?
        var total = 0
    }

    static let childCase = TCA.ActionCase<Action, Int>(
        embed: { .child($0) }, extract: { if case .child(let value) = $0 { value } else { nil } })

    static let scenario = Scenario(
        name: "user-tca-sheet", summary: "a dismissed sheet's action is dropped, not applied",
        variants: [.init("only", "one version")]
    ) { simulation, _ in
        let parent = TCA.Reduce<State, Action>("Parent") { state, action in
            switch action {
            case .open: state.child = 0
            case .close: state.child = nil
            case .child(let value): state.total += value
            }
            return .none
        }
        let child = TCA.Reduce<Int, Int>("Child") { count, value in
            count += value
            return .none
        }
        let reducer = TCA.IfLet(
            parent: parent, child: child, state: \.child, action: childCase, childID: TCA.CancelID(named: "sheet"))
        let store = TCA.Store(simulation, name: "root", initialState: State(), reducer: reducer)
        simulation.post(on: TCA.mainLane, "view") {
            store.send(.open)
            store.send(.child(2))
            store.send(.close)
            store.send(.child(5))
        }
        simulation.atEnd("dropped-after-close") { store.state.total == 7 ? nil : "total \(store.state.total)" }
    }
}

/// Boardy: a task board on a motherboard the scenario holds; the flow sees one output per task.
enum BoardyFetch {
    static let scenario = Scenario(
        name: "user-boardy-fetch", summary: "a second tap while fetching is dropped",
        variants: [.init("only", "one version")]
    ) { simulation, _ in
        let motherboard = Motherboard(sim: simulation)
        let board = TaskBoard(
            "fetch", sim: simulation,
            executor: BoardExecutor.timed(
                simulation, lane: "network", delay: .milliseconds(50), site: "fetch", canFail: false))
        motherboard.installBoard(board)
        let outputs = Box<[String]>([])
        motherboard.registerFlow("log", from: "fetch") { outputs.value.append($0.description) }
        simulation.post(on: "main", "tap") {
            motherboard.activate("fetch", .value(.text("a")))
            motherboard.activate("fetch", .value(.text("b")))
        }
        simulation.atEnd("one-output") {
            withExtendedLifetime(motherboard) {
                outputs.value == ["a"] && board.dropped == 1 ? nil : "\(outputs.value)"
            }
        }
    }
}

/// NativeBlocks: an action whose success child runs after its root trigger.
enum NativeBlocksTap {
    static let scenario = Scenario(
        name: "user-nativeblocks-tap", summary: "a trigger's success child runs",
        variants: [.init("only", "one version")]
    ) { simulation, _ in
        let provider = NativeActionProvider()
        provider.provide("OK", SyncNativeAction { $0.succeed() })
        let tree = NativeActionTree(sim: simulation, provider: provider, state: NativeFrameState(sim: simulation))
        let action = NativeActionModel(
            id: "1", key: "button", event: "onClick",
            triggers: [
                NativeActionTriggerModel(id: "A", keyType: "OK"),
                NativeActionTriggerModel(id: "B", parentId: "A", keyType: "OK", then: .success),
            ])
        simulation.post(on: "main", "click") { tree.dispatch(action, event: "onClick") }
        simulation.atEnd("chain-ran") { tree.entered == ["A", "B"] ? nil : "entered \(tree.entered)" }
    }
}

/// A value shared by one simulation's closures (one thread).
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
