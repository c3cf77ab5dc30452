import SimCore
import SimModels
import SimTestSupport
import Testing

/// A form → review flow whose form requires `user.name` to navigate (player-ui/player
/// `core/player/src/player.ts` taps `skipTransition` with `validateView("navigation")`).
private func makeValidatedPlayer(
    _ simulation: Simulation, staleUpdates: PlayerStaleUpdatePolicy = .deliver,
    rendering: PlayerNativeRendering = .mainQueue
) -> PlayerSession {
    PlayerSession(
        simulation, data: ["user.name": ""],
        states: [
            PlayerFlowState("VIEW_1", view: "form", transitions: ["next": "VIEW_2"]),
            PlayerFlowState("VIEW_2", view: "review", transitions: ["back": "VIEW_1"]),
        ],
        views: ["form": ["user.name"], "review": ["user.name"]], required: ["form": ["user.name"]],
        staleUpdates: staleUpdates, rendering: rendering)
}

@Suite struct PlayerValidationTests {
    @Test func aBlockedTransitionStaysAndReRendersTheCurrentViewFromTheDataModel() {
        let sink = MemorySink()
        let (_, player) = PlayerElementsProbe.run(seed: 0, sink: sink) { simulation in
            let player = makeValidatedPlayer(simulation)
            player.start()
            simulation.post(on: "user", "tap") { #expect(!player.flow.transition("next")) }
            return player
        }
        #expect(player.flow.current?.name == "VIEW_1")
        #expect(player.flow.skippedCount == 1)
        #expect(PlayerElementsProbe.events(sink, "validation.navigation").map { $0.fields["failing"] } == ["user.name"])
        // The same instance, re-resolved: the flow did not enter a new view.
        #expect(player.views.applied.map(\.reason) == ["enter", "validation"])
        #expect(player.views.applied.map(\.instance) == [1, 1])
        #expect(
            PlayerElementsProbe.kinds(sink, only: ["validation.navigation", "view.resolve", "flow.skipped"]) == [
                "view.resolve", "validation.navigation", "view.resolve", "flow.skipped",
            ])
    }

    @Test func validationPassesOnceTheBindingHoldsAValueAndForceSkipsIt() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let player = makeValidatedPlayer(simulation)
        player.start()
        #expect(player.flow.transition("next", force: true), "a forced transition runs no skipTransition hook")
        #expect(player.flow.transition("back"))
        player.data.set("user.name", "Ada")
        #expect(player.flow.transition("next"))
        #expect(player.flow.skippedCount == 0)
        #expect(player.flow.history == ["VIEW_1", "VIEW_2", "VIEW_1", "VIEW_2"])
    }

    @Test func theValidationUpdateWipesTextTypedButNotCommitted() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let player = makeValidatedPlayer(simulation)
        let input = player.input("name", binding: "user.name", view: "form")
        let next = player.action("next", value: "next")
        player.start()
        simulation.post(on: "user", "edit") {
            input.focus()
            input.type("Ada")
            next.run()
        }
        _ = simulation.run()
        #expect(player.flow.current?.name == "VIEW_1")
        #expect(input.overwrites.first?.typed == "Ada")
        #expect(input.overwrites.first?.with == "")
    }

    @Test func eachEnteredViewIsANewInstanceAndAnInputOnlyHearsItsOwnView() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let player = makeValidatedPlayer(simulation)
        let input = player.input("name", binding: "user.name", view: "form")
        player.start()
        simulation.post(on: "user", "go") {
            player.data.set("user.name", "Ada")
            player.flow.transition("next")
        }
        simulation.post(on: "user", "back") {
            input.focus()
            input.type("!")
            player.flow.transition("back")
        }
        _ = simulation.run()
        // The "Ada" batch resolved the form (still current when `set` returned), then review and the
        // form's third instance were entered; each update reaches the native side (nothing dropped).
        #expect(player.views.applied.map(\.viewRef) == ["form", "form", "review", "form"])
        #expect(player.views.applied.map(\.instance) == [1, 1, 2, 3])
        #expect(player.views.droppedCount == 0)
        // The user typed "!" before the form's "Ada" update was applied: it replaced the unsaved text.
        #expect(input.overwrites.map(\.typed) == ["!"])
        #expect(input.overwrites.map(\.with) == ["Ada"])
    }

    /// player-ui/player issue #485 (open): the `.input` commit before a transition resolves the old
    /// view (its microtask runs when `set` returns) and Player delivers that update too; #485 proposes
    /// checking it against the view shown, which `staleUpdates: .drop` does on the native side.
    @Test func theOldViewsUpdateIsDeliveredByPlayerAndDroppedByTheProposalOf485() {
        func run(_ policy: PlayerStaleUpdatePolicy) -> (PlayerSession, MemorySink) {
            let sink = MemorySink()
            let (_, player) = PlayerElementsProbe.run(seed: 0, sink: sink) { simulation in
                let player = makeValidatedPlayer(simulation, staleUpdates: policy)
                player.start()
                simulation.post(on: "user", "commit then go") {
                    player.data.set("user.name", "Ada")  // resolves the form when `set` returns
                    player.flow.transition("next")
                }
                return player
            }
            return (player, sink)
        }
        let (before, beforeSink) = run(.deliver)
        #expect(before.views.applied.map(\.viewRef) == ["form", "form", "review"])
        #expect(
            PlayerElementsProbe.lines(beforeSink, only: ["view.resolve", "flow.transition", "js.microtask"]) == [
                "flow.transition start", "view.resolve form", "js.microtask view.resolve", "view.resolve form",
                "flow.transition next", "view.resolve review",
            ])
        let (after, sink) = run(.drop)
        #expect(after.views.applied.map(\.viewRef) == ["form", "review"])
        #expect(after.views.droppedCount == 1)
        #expect(PlayerElementsProbe.events(sink, "view.dropped").map { $0.fields["instance"] } == ["1"])
    }

    /// Android's shipped fix: `PlayerFragment.handleAssetUpdate` cancels the previous update's
    /// rendering job (player-ui/player
    /// `android/player/src/main/kotlin/com/intuit/playerui/android/ui/PlayerFragment.kt`).
    @Test func cancellingThePreviousRenderShowsTheLastUpdateWhateverTheOrder() {
        for seed in 0..<60 as Range<UInt64> {
            let (_, player) = PlayerElementsProbe.run(seed: seed, strategy: RandomStrategy()) { simulation in
                let player = makeValidatedPlayer(simulation, rendering: .cancelPreviousRender)
                player.start()
                simulation.post(on: "user", "commit then go") {
                    player.data.set("user.name", "Ada")
                    player.flow.transition("next")
                }
                return player
            }
            #expect(player.views.applied.last?.viewRef == "review", "seed \(seed)")
        }
    }

    @Test func concurrentHydrationAppliesTwoUpdatesInEitherOrder() {
        var lastShown = Set<String>()
        for seed in 0..<60 as Range<UInt64> {
            let (_, player) = PlayerElementsProbe.run(seed: seed, strategy: RandomStrategy()) { simulation in
                let player = makeValidatedPlayer(simulation, staleUpdates: .deliver, rendering: .hydrateConcurrently)
                player.start()
                simulation.post(on: "user", "commit then go") {
                    player.data.set("user.name", "Ada")
                    player.flow.transition("next")
                }
                return player
            }
            lastShown.insert(player.views.applied.last?.viewRef ?? "")
        }
        #expect(lastShown == ["form", "review"])
    }
}
