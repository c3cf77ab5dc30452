import SimCore
import SimModels
import SimTestSupport
import Testing

/// A form → review flow whose form requires `user.name` to navigate (player-ui/player
/// `core/player/src/player.ts` taps `skipTransition` with `validateView("navigation")`).
private func makeValidatedPlayer(
    _ simulation: Simulation, staleUpdates: PlayerStaleUpdatePolicy = .drop,
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
        #expect(player.views.applied.map(\.viewRef) == ["form", "review", "form"])
        #expect(player.views.applied.map(\.instance) == [1, 2, 3])
        // The "Ada" batch belonged to the form's first instance, left before it ran: dropped, so the
        // field still held "" when the user typed. Review's update never reached the form's input;
        // entering form again did, and replaced the unsaved "!" with the saved "Ada".
        #expect(player.views.droppedCount == 1)
        #expect(input.overwrites.map(\.typed) == ["!"])
        #expect(input.overwrites.map(\.with) == ["Ada"])
    }

    /// player-ui/player issue #403 / #485: an update queued for a view before the transition reaches
    /// the old instance after it; PR #471 drops it.
    @Test func anUpdateQueuedForALeftViewIsDeliveredBeforePR471AndDroppedAfter() {
        func run(_ policy: PlayerStaleUpdatePolicy) -> (PlayerSession, MemorySink) {
            let sink = MemorySink()
            let (_, player) = PlayerElementsProbe.run(seed: 0, sink: sink) { simulation in
                let player = makeValidatedPlayer(simulation, staleUpdates: policy)
                player.start()
                simulation.post(on: "user", "commit then go") {
                    player.data.set("user.name", "Ada")  // queues a batch for the form's instance
                    player.flow.transition("next")
                }
                return player
            }
            return (player, sink)
        }
        let (before, _) = run(.deliver)
        #expect(before.views.applied.map(\.viewRef) == ["form", "review", "form"])
        #expect(before.views.applied.last?.instance == 1, "the old instance reached the native side")
        let (after, sink) = run(.drop)
        #expect(after.views.applied.map(\.viewRef) == ["form", "review"])
        #expect(after.views.droppedCount == 1)
        #expect(PlayerElementsProbe.events(sink, "view.dropped").map { $0.fields["instance"] } == ["1"])
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
