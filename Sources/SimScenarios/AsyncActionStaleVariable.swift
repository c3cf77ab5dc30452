import SimCore
import SimModels

/// `async-action-stale-variable`: a buy button submits an order with a price its sibling is still
/// fetching.
///
/// Grounded in nativeblocks/nativeblocks-core-sdk, Android runtime `frame/ActionTree.kt`: root
/// triggers are handled one after another in array order, and a handler that launches its work in
/// a coroutine returns at once, so the walker moves on to the next root before that work (and the
/// children its success callback would run) has happened. Variables are written through
/// `onChangeVariable` and read back with `onFindVariable`.
///
/// `buggy`: FETCH_PRICE and SUBMIT_ORDER are two root triggers; both are async, so SUBMIT_ORDER can
/// read `price` before FETCH_PRICE wrote it and submits the stale value. `fixed`: SUBMIT_ORDER is a
/// SUCCESS child of FETCH_PRICE, the way the trigger tree expresses "after this succeeded".
public enum AsyncActionStaleVariable {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "async-action-stale-variable",
        summary:
            "an async sibling trigger reads a variable before the fetch that sets it has run"
            + " — a race: fifo passes",
        variants: [
            .init("buggy", "submit is a root sibling of the async price fetch"),
            .init("fixed", "submit is a SUCCESS child of the price fetch"),
        ]
    ) { sim, variant in
        StaleVariableApp(sim: sim, chainsSubmit: variant == "fixed").start()
    }
}

/// The frame, handlers and action of the scenario.
final class StaleVariableApp {
    unowned let sim: Simulation
    let chainsSubmit: Bool
    let tree: NativeActionTree
    var submitted: [String] = []
    let freshPrice = "42"

    init(sim: Simulation, chainsSubmit: Bool) {
        self.sim = sim
        self.chainsSubmit = chainsSubmit
        let state = NativeFrameState(sim: sim)
        // The price shown for the previous product is still in the frame.
        state.declare(NativeVariableModel(key: "price", value: "0"))
        state.declare(NativeBlockModel(key: "buyButton", keyType: "BUTTON", properties: ["enabled": "true"]))
        tree = NativeActionTree(sim: sim, provider: NativeActionProvider(), state: state)
    }

    func start() {
        let sim = self.sim
        let fresh = freshPrice
        tree.provider.provide(
            "FETCH_PRICE",
            AsyncNativeAction(sim, lane: "io.fetch", label: "fetch.price") { props in
                props.onVariableChange?(NativeVariableModel(key: "price", value: fresh))
                props.succeed()
            })
        tree.provider.provide(
            "SUBMIT_ORDER",
            AsyncNativeAction(sim, lane: "io.submit", label: "submit.order") { [unowned self] props in
                let price = props.findVariable("price")?.value ?? ""
                submitted.append(price)
                sim.emit("order.submit", "order", ["price": .text(price)])
                if price == fresh { sim.reach("submit-read-fresh-price") }
                props.succeed()
            })
        tree.provider.provide(
            "DISABLE_BUTTON",
            SyncNativeAction { props in
                props.onChangeBlock?(
                    NativeBlockModel(key: "buyButton", keyType: "BUTTON", properties: ["enabled": "false"]))
            })
        let submitParent: String? = chainsSubmit ? "fetch" : nil
        let action = NativeActionModel(
            id: "buy", key: "buy", event: "onClick",
            triggers: [
                NativeActionTriggerModel(id: "fetch", keyType: "FETCH_PRICE"),
                NativeActionTriggerModel(
                    id: "submit", parentId: submitParent, keyType: "SUBMIT_ORDER", then: chainsSubmit ? .success : nil),
                NativeActionTriggerModel(id: "disable", parentId: "submit", keyType: "DISABLE_BUTTON", then: .success),
            ])
        tree.state.observe("price") { _ in sim.reach("price-fetched") }
        sim.post(on: "main", "tap.buy") { [unowned self] in tree.dispatch(action, event: "onClick") }

        sim.always("submitted-fresh-price") { [self] in
            guard let stale = submitted.first(where: { $0 != fresh }) else { return nil }
            return "order submitted with stale price \(stale) (fresh price is \(fresh))"
        }
        sim.atEnd("submitted-once") { [self] in
            submitted.count == 1 ? nil : "\(submitted.count) submissions"
        }
        sim.sometimes("price-fetched")
        sim.sometimes("submit-read-fresh-price")
        sim.sometimes("button-disabled") { [self] in tree.state.blocks["buyButton"]?.properties["enabled"] == "false" }
    }
}
