import SimCore
import SimModels

/// Two systems on one screen: a Nativeblocks frame (server-driven UI) shown as a TCA child feature.
///
/// The cart presents a promo sheet (an `ifLet` child); the sheet's content is a Nativeblocks frame
/// whose Apply button runs an action: APPLY_COUPON, an async handler (the request, 100-300ms), then
/// its SUCCESS child SEND_TO_STORE, which hands the result to the app's store on `main`. Nothing ties
/// the handler's work to the sheet's lifetime (Nativeblocks' action tree runs the async body as its
/// own job: nativeblocks-core-sdk `frame/ActionTree.kt`). The user closes the sheet 200ms after
/// Apply. `buggy`: the bridge sends the result into the sheet's child feature; if the sheet is
/// already closed, `ifLet` drops the child action (TCA reports "received a child action when child
/// state was nil") and the coupon the server applied never reaches the cart. `fixed`: the bridge
/// sends it to the cart, the feature that owns the coupon and outlives the frame; the child only
/// tells its parent through delegate actions (tca-boundaries).
public enum NativeblocksTCALateSend {
    public static let scenario = Scenario(
        name: "nativeblocks-tca-late-send",
        summary:
            "a Nativeblocks async action sends its result into a TCA child feature the user already dismissed;"
            + " the coupon the server applied never reaches the cart",
        variants: [
            .init("buggy", "the action's result goes to the sheet's child feature (dropped once it is dismissed)"),
            .init("fixed", "the action's result goes to the cart feature, which outlives the sheet"),
        ],
        setUp: { simulation, variant in setUp(simulation, toCart: variant == "fixed") })

    enum PromoAction: TCAFeatureAction {
        enum ViewAction: Equatable, Sendable {}
        enum InternalAction: Equatable, Sendable { case couponApplied(String) }
        enum DelegateAction: Equatable, Sendable { case applied(String) }
        case view(ViewAction)
        case _internal(InternalAction)
        case delegate(DelegateAction)
    }
    struct PromoState: Equatable { var applied: String? }

    enum Action: Equatable, Sendable {
        case openPromo
        case closePromo
        case couponApplied(String)
        case promo(PromoAction)
    }
    struct State: Equatable {
        var promo: PromoState?
        var coupon: String?
    }

    static let promoCase = TCA.ActionCase<Action, PromoAction>(
        embed: { .promo($0) }, extract: { if case .promo(let action) = $0 { action } else { nil } })

    static var reducer:
        TCA.IfLet<TCA.ChildBoundary<TCA.Reduce<State, Action>, PromoAction>, TCA.Reduce<PromoState, PromoAction>>
    {
        let cart = TCA.Reduce<State, Action>("Cart") { state, action in
            switch action {
            case .openPromo: state.promo = PromoState()
            case .closePromo: state.promo = nil
            case .couponApplied(let code), .promo(.delegate(.applied(let code))): state.coupon = code
            case .promo: break  // the child's view and internal actions are its own (checked below)
            }
            return .none
        }
        let promo = TCA.Reduce<PromoState, PromoAction>("Promo") { state, action in
            switch action {
            case ._internal(.couponApplied(let code)):
                state.applied = code
                return .send(.delegate(.applied(code)))
            case .view, .delegate: return .none
            }
        }
        // tca-boundaries: of the sheet's actions, the cart may only react to delegate ones.
        return cart.checkingBoundary(of: promoCase, name: "Cart").ifLet(\.promo, action: promoCase, id: "promo") {
            promo
        }
    }

    /// What the server did (the backend's truth, read by the oracle).
    private final class Server {
        var applied: [String] = []
        /// Set when the user closed the sheet before the response (what the oracle's goal counts).
        var closedBeforeResponse = false
    }

    static let code = "SPRING10"

    static func setUp(_ simulation: Simulation, toCart: Bool) {
        let store = TCA.Store(simulation, name: "cart", initialState: State(), reducer: reducer)
        let server = Server()
        let frame = NativeFrameState(sim: simulation)
        frame.declare(NativeVariableModel(key: "coupon", value: code))
        let tree = NativeActionTree(sim: simulation, provider: NativeActionProvider(), state: frame)
        let main = simulation.lane(TCA.mainLane)
        tree.provider.provide(
            "APPLY_COUPON",
            AsyncNativeAction(simulation, lane: "io.coupon", label: "coupon.request") {
                [unowned simulation] props in
                let coupon = props.findVariable("coupon")?.value ?? ""
                let latencies: [Int64] = [100, 200, 300]
                let latency = latencies[simulation.choose(latencies.count, "coupon.latency")]
                simulation.emit("net.request", "coupon", ["latencyMs": .int(latency)])
                simulation.after(.milliseconds(latency), on: simulation.lane("io.coupon"), "coupon.response") {
                    server.applied.append(coupon)
                    simulation.emit("server.apply", coupon)
                    props.succeed()
                }
            })
        tree.provider.provide(
            "SEND_TO_STORE",
            SyncNativeAction { [unowned simulation, unowned store] props in
                let coupon = props.findVariable("coupon")?.value ?? ""
                simulation.post(main, simulation.symbol("bridge.send")) {
                    store.send(toCart ? .couponApplied(coupon) : .promo(._internal(.couponApplied(coupon))))
                }
            })
        let apply = NativeActionModel(
            id: "apply", key: "apply", event: "onClick",
            triggers: [
                NativeActionTriggerModel(id: "request", keyType: "APPLY_COUPON"),
                NativeActionTriggerModel(id: "send", parentId: "request", keyType: "SEND_TO_STORE", then: .success),
            ])

        simulation.post(main, simulation.symbol("user.openPromo")) { [unowned simulation, unowned store] in
            store.send(.openPromo)
            simulation.post(main, simulation.symbol("user.tapApply")) {
                tree.dispatch(apply, event: "onClick")
                // The user closes the sheet 200ms after tapping Apply; the response takes 100, 200 or
                // 300ms (a decision), so it comes before, at the same instant (a chosen order), or after.
                simulation.after(.milliseconds(200), on: simulation.lane("user"), "user.close") {
                    simulation.post(main, simulation.symbol("user.closePromo")) {
                        if server.applied.isEmpty { server.closedBeforeResponse = true }
                        store.send(.closePromo)
                    }
                }
            }
        }

        simulation.always("tca.bookkeeping") { store.invariantViolation() }
        simulation.atEnd("cart-shows-applied-coupon") {
            guard let applied = server.applied.last else { return "the coupon request never completed" }
            return store.state.coupon == applied
                ? nil : "the server applied \(applied) but the cart shows \(store.state.coupon ?? "no coupon")"
        }
        simulation.sometimes("sheet closed before the response") { server.closedBeforeResponse }
        simulation.sometimes("coupon shown") { store.state.coupon == code }
        // Also what keeps the frame's action tree alive while its async handler is in flight.
        simulation.sometimes("result handed to the store") { tree.entered.contains("send") }
    }
}
