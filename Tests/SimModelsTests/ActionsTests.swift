import SimCore
import SimModels
import SimTestSupport
import Testing

/// A trigger in a flat action tree.
private func trigger(
    _ id: String, parent: String? = nil, key: String? = nil, then: NativeActionTriggerThen? = nil
) -> NativeActionTriggerModel {
    NativeActionTriggerModel(id: id, parentId: parent, keyType: key ?? id, then: then)
}

/// A walker whose handlers are `handlers` (keyType → handler), over a fresh frame.
private func makeTree(_ sim: Simulation, _ handlers: [(String, any INativeAction)]) -> NativeActionTree {
    let provider = NativeActionProvider()
    for (keyType, handler) in handlers { provider.provide(keyType, handler) }
    let tree = NativeActionTree(sim: sim, provider: provider, state: NativeFrameState(sim: sim))
    sim.atEnd("app-holds-tree") { withExtendedLifetime(tree) { nil } }
    return tree
}

@Suite struct ActionsTests {
    @Test func endAndMissingThenStopTheChain() {
        let entered = ValueBox<[String]>([])
        _ = simulate { sim in
            let succeed = SyncNativeAction { $0.succeed() }
            let tree = makeTree(sim, ["A", "B", "C", "D", "E"].map { ($0, succeed) })
            let action = NativeActionModel(
                id: "1", key: "tap", event: "onClick",
                triggers: [
                    trigger("A"), trigger("B", parent: "A", then: .success), trigger("C", parent: "A", then: .end),
                    trigger("D", parent: "A", then: nil),
                    trigger("E", parent: "A", then: NativeActionTriggerThen(parsing: "LATER")),
                ])
            sim.post(on: "main", "click") {
                tree.dispatch(action, event: "onClick")
                entered.value = tree.entered
            }
        }
        #expect(entered.value == ["A", "B"])
        #expect(NativeActionTriggerThen(parsing: nil) == .end)
    }

    @Test func aMissingHandlerFallsBackAndStopsTheChain() {
        let result = ValueBox<([String], [String])>(([], []))
        _ = simulate { sim in
            let tree = makeTree(sim, [("OK", SyncNativeAction { $0.succeed() })])
            let action = NativeActionModel(
                id: "1", key: "tap", event: "onClick",
                triggers: [
                    trigger("X", key: "MISSING"), trigger("Y", parent: "X", key: "OK", then: .success),
                    trigger("Z", key: "OK"),
                ])
            sim.post(on: "main", "click") {
                tree.dispatch(action, event: "onClick")
                result.value = (tree.entered, tree.fallbacks)
            }
        }
        #expect(result.value.0 == ["Z"])
        #expect(result.value.1 == ["X"])
    }

    @Test func aCallbackFiredTwiceRunsTheSubtreeTwice() {
        let entered = ValueBox<[String]>([])
        _ = simulate { sim in
            let tree = makeTree(
                sim,
                [
                    (
                        "A",
                        SyncNativeAction { props in
                            props.succeed()
                            props.succeed()
                        }
                    ),
                    ("B", SyncNativeAction { $0.next() }), ("C", SyncNativeAction { _ in }),
                ])
            let action = NativeActionModel(
                id: "1", key: "tap", event: "onClick",
                triggers: [
                    trigger("A"), trigger("B", parent: "A", then: .success), trigger("C", parent: "B", then: .next),
                ])
            sim.post(on: "main", "click") {
                tree.dispatch(action, event: "onClick")
                entered.value = tree.entered
            }
        }
        #expect(entered.value == ["A", "B", "C", "B", "C"])
    }

    @Test func failureAndNextRunOnlyTheirChildren() {
        let entered = ValueBox<[String]>([])
        _ = simulate { sim in
            let tree = makeTree(
                sim,
                [
                    (
                        "A",
                        SyncNativeAction { props in
                            props.fail()
                            props.next()
                        }
                    ), ("K", SyncNativeAction { _ in }),
                ])
            let action = NativeActionModel(
                id: "1", key: "tap", event: "onClick",
                triggers: [
                    trigger("A"), trigger("S", parent: "A", key: "K", then: .success),
                    trigger("F", parent: "A", key: "K", then: .failure),
                    trigger("N", parent: "A", key: "K", then: .next),
                ])
            sim.post(on: "main", "click") {
                tree.dispatch(action, event: "onClick")
                entered.value = tree.entered
            }
        }
        #expect(entered.value == ["A", "F", "N"])
    }

    @Test func rootTriggersRunInArrayOrderAndOnlyForTheirEvent() {
        let entered = ValueBox<[String]>([])
        _ = simulate { sim in
            let noop = SyncNativeAction { _ in }
            let tree = makeTree(sim, [("K", noop)])
            let action = NativeActionModel(
                id: "1", key: "tap", event: "onClick",
                triggers: [
                    trigger("R3", key: "K"), trigger("R1", key: "K"), nil, trigger("R2", key: "K"),
                    trigger("child", parent: "R1", key: "K", then: .success),
                ])
            sim.post(on: "main", "click") {
                tree.dispatch(action, event: "onLongPress")
                tree.dispatch(action, event: "onClick")
                entered.value = tree.entered
            }
        }
        #expect(entered.value == ["R3", "R1", "R2"])
    }

    @Test func anAsyncHandlerLetsTheNextRootSiblingRunBeforeItsChildren() {
        var siblingFirst = 0
        var childFirst = 0
        for seed in 0..<100 as Range<UInt64> {
            let bodies = ValueBox<[String]>([])
            _ = simulate(seed: seed, strategy: RandomStrategy()) { sim in
                let tree = makeTree(
                    sim,
                    [
                        (
                            "FETCH",
                            AsyncNativeAction(sim, lane: "io.fetch") { props in
                                bodies.value.append("fetch")
                                props.succeed()
                            }
                        ),
                        ("SHOW", SyncNativeAction { _ in bodies.value.append("show") }),
                        ("SUBMIT", AsyncNativeAction(sim, lane: "io.submit") { _ in bodies.value.append("submit") }),
                    ])
                let action = NativeActionModel(
                    id: "1", key: "buy", event: "onClick",
                    triggers: [
                        trigger("fetch", key: "FETCH"), trigger("show", parent: "fetch", key: "SHOW", then: .success),
                        trigger("submit", key: "SUBMIT"),
                    ])
                sim.post(on: "main", "click") { tree.dispatch(action, event: "onClick") }
            }
            let order = bodies.value
            #expect(order.count == 3 && order.first(where: { $0 != "submit" }) == "fetch", "seed \(seed): \(order)")
            if let submit = order.firstIndex(of: "submit"), let show = order.firstIndex(of: "show") {
                if submit < show { siblingFirst += 1 } else { childFirst += 1 }
            }
        }
        #expect(siblingFirst > 0)
        #expect(childFirst > 0)
    }

    @Test func variableWritesGoThroughOnVariableChangeAndNotifyObservers() {
        let seen = ValueBox<[String]>([])
        let snapshot = ValueBox<String?>(nil)
        let live = ValueBox<String?>(nil)
        _ = simulate { sim in
            let tree = makeTree(
                sim,
                [
                    (
                        "SET",
                        SyncNativeAction { props in
                            props.onVariableChange?(NativeVariableModel(key: "price", value: "42"))
                            props.succeed()
                        }
                    ),
                    (
                        "READ",
                        SyncNativeAction { props in
                            snapshot.value = props.variables?["price"]?.value
                            live.value = props.findVariable("price")?.value
                        }
                    ),
                ])
            tree.state.declare(NativeVariableModel(key: "price", value: "0"))
            tree.state.observe("price") { seen.value.append($0.value) }
            let action = NativeActionModel(
                id: "1", key: "buy", event: "onClick",
                triggers: [trigger("set", key: "SET"), trigger("read", parent: "set", key: "READ", then: .success)])
            sim.post(on: "main", "click") { tree.dispatch(action, event: "onClick") }
        }
        #expect(seen.value == ["42"])
        #expect(snapshot.value == "42", "a child's props are built after its parent's write")
        #expect(live.value == "42")
    }

    @Test func actionTreeInvariantsHoldForManyRandomSeeds() {
        for seed in 0..<200 as Range<UInt64> {
            let result = simulate(seed: seed, strategy: RandomStrategy()) { sim in
                // Each handler decides success or failure, and may fire its callback twice.
                let fired = ValueBox<[String: Int]>([:])
                let make: (String) -> any INativeAction = { lane in
                    AsyncNativeAction(sim, lane: lane) { props in
                        let times = sim.buggify("callback.twice") ? 2 : 1
                        let succeeds = sim.choose(2, "outcome") == 0
                        for _ in 0..<times {
                            let key = "\(props.trigger?.id ?? "")/\(succeeds ? "SUCCESS" : "FAILURE")"
                            fired.value[key, default: 0] += 1
                            if succeeds { props.succeed() } else { props.fail() }
                        }
                    }
                }
                let tree = makeTree(sim, [("A", make("io.a")), ("B", make("io.b"))])
                let triggers: [NativeActionTriggerModel?] = [
                    trigger("r1", key: "A"), trigger("c1", parent: "r1", key: "B", then: .success),
                    trigger("c2", parent: "r1", key: "B", then: .failure),
                    trigger("c3", parent: "r1", key: "A", then: .end),
                    trigger("g1", parent: "c1", key: "A", then: .success), trigger("r2", key: "B"),
                    trigger("c4", parent: "r2", key: "MISSING", then: .failure),
                    trigger("g2", parent: "c4", key: "A", then: .success),
                ]
                let action = NativeActionModel(id: "1", key: "k", event: "onClick", triggers: triggers)
                sim.post(on: "main", "click") { tree.dispatch(action, event: "onClick") }
                let parents: [(child: String, parent: String, then: String)] = [
                    ("c1", "r1", "SUCCESS"), ("c2", "r1", "FAILURE"), ("g1", "c1", "SUCCESS"),
                ]
                sim.always("children-run-once-per-callback") {
                    for (child, parent, then) in parents {
                        let runs = tree.entered.filter { $0 == child }.count
                        let calls = fired.value["\(parent)/\(then)"] ?? 0
                        if runs != calls { return "\(child) ran \(runs)× for \(calls) \(then) callbacks of \(parent)" }
                    }
                    return nil
                }
                sim.always("end-and-fallback-stop") {
                    tree.entered.contains("c3") || tree.entered.contains("g2") ? "a stopped chain went on" : nil
                }
                sim.atEnd("roots-entered-in-order") {
                    Array(tree.entered.filter { $0.hasPrefix("r") }) == ["r1", "r2"] ? nil : "roots \(tree.entered)"
                }
            }
            #expect(result.verdict == .pass, "seed \(seed): \(result.verdict)")
        }
    }
}
