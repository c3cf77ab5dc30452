import SimCore
import SimModels
import SimTestSupport
import Testing

/// A form → review flow over one binding, shown by both views.
private func makePlayer(_ simulation: Simulation) -> PlayerSession {
    PlayerSession(
        simulation, data: ["user.name": "", "user.age": ""],
        states: [
            PlayerFlowState("VIEW_1", view: "form", transitions: ["next": "VIEW_2"]),
            PlayerFlowState("VIEW_2", view: "review", transitions: ["back": "VIEW_1"]),
        ],
        views: ["form": ["user.name", "user.age"], "review": ["user.name"]])
}

@Suite struct TransactionsTests {
    @Test func commitLeavesCallbacksRegisteredAndClearRemovesThem() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let context = TransactionContext<PendingTransactionPhases>(simulation)
        var runs = 0
        context.register(.input) { runs += 1 }
        context.register(.input) { runs += 10 }
        context.commit(.input)
        context.commit(.input)
        #expect(runs == 22)
        #expect(context.callbackCount(.input) == 2)
        context.clear(.input)
        #expect(context.callbackCount(.input) == 0)
        context.commit(.input)
        #expect(runs == 22)
    }

    @Test func phasesAreCommittedAndClearedIndependently() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let context = TransactionContext<PendingTransactionPhases>(simulation)
        let action = PendingTransactionPhases(rawValue: "action")
        var log: [String] = []
        context.register(.input) { log.append("input") }
        context.register(action) { log.append("action") }
        context.commit([action, .input])
        #expect(log == ["action", "input"])
        context.clear([.input])
        #expect(context.callbackCount(.input) == 0 && context.callbackCount(action) == 1)
        context.clear([action, .input])
        #expect(context.callbackCount(action) == 0)
    }

    @Test func commitOrderIsADecisionAndFifoKeepsRegistrationOrder() {
        func order(seed: UInt64, strategy: any Strategy) -> [Int] {
            let simulation = Simulation(seed: seed, strategy: strategy)
            let context = TransactionContext<PendingTransactionPhases>(simulation)
            var log: [Int] = []
            for index in 0..<3 { context.register(.input) { log.append(index) } }
            context.commit(.input)
            #expect(simulation.decisions.contains { $0.kind == .permute })
            return log
        }
        #expect(order(seed: 0, strategy: FIFOStrategy()) == [0, 1, 2])
        var seen = Set<[Int]>()
        for seed in 0..<60 { seen.insert(order(seed: UInt64(seed), strategy: RandomStrategy())) }
        #expect(seen.allSatisfy { $0.sorted() == [0, 1, 2] })
        #expect(seen.count == 6, "every order of three callbacks occurs: \(seen)")
    }

    @Test func aSecondTransitionDuringOneIsRefused() {
        let sink = MemorySink()
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let flow = PlayerFlow(
            simulation, start: "A",
            states: [
                PlayerFlowState("A", view: "a", transitions: ["next": "B"]),
                PlayerFlowState("B", view: "b", transitions: ["next": "C"]),
                PlayerFlowState("C", view: nil),
            ])
        var nested: Bool?
        flow.onTransition { _, state in
            if state.name == "B" { nested = flow.transition("next") }
        }
        flow.start()
        #expect(flow.transition("next"))
        #expect(nested == false)
        #expect(flow.current?.name == "B")
        #expect(flow.refusedCount == 1)
        #expect(PlayerElementsProbe.events(sink, "flow.refused").map { $0.fields["reason"] } == ["in-transition"])
        #expect(flow.transition("next"))
        #expect(!flow.transition("next"), "an END state has no transitions")
    }

    @Test func dataChangesInOneCallBatchIntoOneMicrotask() {
        let sink = MemorySink()
        let (result, player) = PlayerElementsProbe.run(seed: 0, sink: sink) { simulation in
            let player = makePlayer(simulation)
            player.start()
            simulation.post(on: "user", "edit") {
                // One call into JS (a script setting three bindings): one microtask, one update.
                player.js.call {
                    player.data.set("user.name", "Ada")
                    player.data.set("user.age", "36")
                    player.data.set("user.name", "Ada L")
                }
            }
            return player
        }
        #expect(result.verdict == .pass)
        #expect(player.views.queuedBatches == 1)
        #expect(
            PlayerElementsProbe.events(sink, "view.queueUpdate").map { $0.fields["batched"] } == [
                "false", "true", "true",
            ])
        #expect(PlayerElementsProbe.events(sink, "view.resolve").map { $0.fields["reason"] } == ["enter", "data"])
        #expect(player.views.applied.map(\.reason) == ["enter", "data"])
        #expect(player.views.applied.last?.value(of: "user.name") == "Ada L")
    }

    @Test func anUnchangedSetNotifiesNobody() {
        let (_, player) = PlayerElementsProbe.run(seed: 0) { simulation in
            let player = makePlayer(simulation)
            player.start()
            simulation.post(on: "user", "edit") { player.data.set("user.name", "") }
            return player
        }
        #expect(player.views.queuedBatches == 0)
    }

    /// JavaScriptCore drains microtasks when the native→JS call that queued them returns, before
    /// any other native event: Player's `queueUpdate` microtask (player-ui/player
    /// `core/player/src/controllers/view/controller.ts`) resolves inside the job that set the data.
    @Test func microtasksRunAtTheEndOfTheCallThatQueuedThem() {
        for seed in 0..<100 {
            let sink = MemorySink()
            let (result, _) = PlayerElementsProbe.run(seed: UInt64(seed), strategy: RandomStrategy(), sink: sink) {
                simulation in
                let player = makePlayer(simulation)
                player.start()
                simulation.post(on: "user", "edit") {
                    // Jobs on other lanes, posted first: none may run between `set` and its update.
                    simulation.post(on: "main", "probe") { simulation.emit("probe.main") }
                    simulation.post(on: "user.other", "probe") { simulation.emit("probe.other") }
                    player.data.set("user.name", "Ada")
                    simulation.emit("set.returned")
                }
                return player
            }
            #expect(result.verdict == .pass)
            let order = PlayerElementsProbe.kinds(
                sink, only: ["data.set", "js.microtask", "view.resolve", "set.returned", "probe.main", "probe.other"])
            #expect(
                Array(order.prefix(5)) == ["view.resolve", "data.set", "js.microtask", "view.resolve", "set.returned"])
            #expect(Set(order.suffix(2)) == ["probe.main", "probe.other"], "seed \(seed): \(order)")
        }
    }

    /// The microtask updates `currentView` as it is when it runs (controller.ts): a set and a
    /// transition in one call resolve the new view; in two calls, the old view first.
    @Test func theMicrotaskResolvesTheViewCurrentWhenItRuns() {
        func resolved(oneCall: Bool) -> [String] {
            let sink = MemorySink()
            _ = PlayerElementsProbe.run(seed: 0, sink: sink) { simulation in
                let player = makePlayer(simulation)
                player.start()
                simulation.post(on: "user", "go") {
                    if oneCall {
                        player.js.call {
                            player.data.set("user.name", "Ada")
                            player.flow.transition("next")
                        }
                    } else {
                        player.data.set("user.name", "Ada")
                        player.flow.transition("next")
                    }
                }
                return player
            }
            return PlayerElementsProbe.events(sink, "view.resolve").map { "\($0.subject) \($0.fields["reason"] ?? "")" }
        }
        #expect(resolved(oneCall: false) == ["form enter", "form data", "review enter"])
        #expect(resolved(oneCall: true) == ["form enter", "review enter", "review data"])
    }

    /// A binding with no value is not "": the reference input's sink maps an optional and leaves the
    /// text alone (player-ui/player `plugins/reference-assets/swiftui/Sources/SwiftUI/InputAsset.swift`).
    @Test func aBindingWithNoValueLeavesTheTypedTextAlone() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let player = PlayerSession(
            simulation, data: ["user.age": ""], states: [PlayerFlowState("VIEW_1", view: "form")],
            views: ["form": ["user.name", "user.age"]])
        let input = player.input("name", binding: "user.name", view: "form")
        player.start()
        simulation.post(on: "user", "edit") {
            input.focus()
            input.type("Ada")
            player.data.set("user.age", "36")  // re-resolves the form; user.name holds no value
        }
        _ = simulation.run()
        #expect(player.data.value("user.name") == nil)
        #expect(player.views.applied.last?.value(of: "user.name") == nil)
        #expect(input.overwrites.isEmpty)
        #expect(input.text == "Ada")
    }

    @Test func aViewUpdateCopiesTheBindingIntoTheLocalText() {
        let sink = MemorySink()
        let (_, input) = PlayerElementsProbe.run(seed: 0, sink: sink) { simulation in
            let player = makePlayer(simulation)
            let input = player.input("name", binding: "user.name")
            player.start()
            simulation.post(on: "user", "type") { input.type("draft") }
            simulation.post(on: "user", "server") { player.data.set("user.name", "Grace") }
            return (input, player)
        }
        #expect(input.0.text == "Grace")
        #expect(input.0.overwrites.isEmpty, "not editing: nothing unsaved was lost")
        #expect(PlayerElementsProbe.events(sink, "input.sink").last?.fields["to"] == "Grace")
    }

    @Test func blurSavesThenClears() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let player = makePlayer(simulation)
        let input = player.input("name", binding: "user.name")
        player.start()
        simulation.post(on: "user", "edit") {
            input.focus()
            input.type("Ada")
            #expect(player.transactions.callbackCount(.input) == 1)
            #expect(input.hasUnsavedText)
            input.blur()
        }
        _ = simulation.run()
        #expect(player.data.get("user.name") == "Ada")
        #expect(player.transactions.callbackCount(.input) == 0)
        #expect(input.overwrites.isEmpty)
    }

    @Test func anUpdateOfTheInputsViewDuringEditingLosesTyping() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let player = makePlayer(simulation)
        let input = player.input("name", binding: "user.name", view: "form")
        player.start()
        simulation.post(on: "user", "edit") {
            input.focus()
            input.type("Ada")
            player.data.set("user.age", "36")  // re-resolves the form, whose name is still ""
        }
        _ = simulation.run()
        #expect(input.overwrites.first?.typed == "Ada")
        #expect(input.text == "")
    }

    @Test func commitCallbacksThenCallSavesBeforeNavigating() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let player = makePlayer(simulation)
        let input = player.input("name", binding: "user.name")
        let next = player.action("next", value: "next")
        player.start()
        simulation.post(on: "user", "edit") {
            input.focus()
            input.type("Ada")
            next.commitCallbacksThenCall()
        }
        _ = simulation.run()
        #expect(player.flow.current?.name == "VIEW_2")
        #expect(player.data.get("user.name") == "Ada")
        #expect(input.overwrites.isEmpty)
        #expect(input.text == "Ada")
    }

    @Test func randomSchedulesKeepThePlayerModelsInvariants() {
        let strategy = RandomStrategy()
        for seed in 0..<200 {
            let simulation = Simulation(seed: UInt64(seed), strategy: strategy)
            let player = makePlayer(simulation)
            let input = player.input("name", binding: "user.name")
            let next = player.action("next", value: "next")
            let back = player.action("back", value: "back")
            var drainedBeforeEveryApply = true
            player.views.onNativeUpdate { _ in
                if player.js.pendingMicrotasks > 0 { drainedBeforeEveryApply = false }
            }
            player.start()
            let lanes = ["user.a", "user.b", "user.c"]
            for step in 0..<6 {
                simulation.post(on: lanes[simulation.choose(3, "lane")], "user.\(step)") {
                    switch simulation.choose(6, "gesture") {
                    case 0: input.focus()
                    case 1: if input.isEditing { input.type("x") }
                    case 2: if input.isEditing { input.blur() }
                    case 3: next.commitCallbacksThenCall()
                    case 4: back.run()
                    default: player.data.set("user.age", "\(step)")
                    }
                }
            }
            simulation.always("flow-not-left-transitioning") {
                player.flow.isTransitioning ? "a transition did not finish" : nil
            }
            simulation.always("native-updates-in-resolution-order") {
                let numbers = player.views.applied.map(\.number)
                return numbers == numbers.sorted() ? nil : "applied out of order: \(numbers)"
            }
            simulation.always("microtasks-drained-between-jobs") {
                if player.js.pendingMicrotasks > 0 {
                    return "\(player.js.pendingMicrotasks) microtasks left between jobs"
                }
                return drainedBeforeEveryApply ? nil : "a main view update ran with a microtask pending"
            }
            simulation.always("no-pending-input-after-blur") {
                !input.isEditing && player.transactions.callbackCount(.input) > 0
                    ? "\(player.transactions.callbackCount(.input)) .input callbacks left after editing ended" : nil
            }
            simulation.atEnd("field-shows-binding-when-not-editing") {
                input.isEditing || input.text == player.data.get("user.name")
                    ? nil : "field '\(input.text)' but binding '\(player.data.get("user.name"))'"
            }
            let result = simulation.run()
            #expect(result.verdict == .pass, "seed \(seed): \(result.verdict)")
        }
    }
}
