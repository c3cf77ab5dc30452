import SimCore
import SimModels
import SimTestSupport
import Testing

/// player-ui/player `ios/swiftui/Sources/SwiftUIPlayer.swift`: `hooks.state` writes through
/// `Task { @MainActor }`, `unload()` sets `state = nil`; commit b57d1fdc guards the deferred write
/// with `self.player == playerValue`.
@Suite struct SwiftUIPlayerContextTests {
    private func run(_ stateGuard: SwiftUIPlayerContext.StateGuard, unloadInSameJob: Bool) -> SwiftUIPlayerContext {
        let sim = Simulation(seed: 0, strategy: FIFOStrategy())
        let context = SwiftUIPlayerContext(sim, stateGuard: stateGuard)
        let session = PlayerSession(
            sim,
            states: [PlayerFlowState("VIEW_1", view: "page", transitions: ["done": "END"]), .init("END", view: nil)],
            views: ["page": []])
        sim.post(on: "main", "load") {
            context.load(session)
            // The state hook fired inside `load` (flow started); its write is a later `main` job.
            #expect(context.state == nil)
            if unloadInSameJob { context.unload() }
        }
        _ = sim.run()
        withExtendedLifetime(session) {}
        return context
    }

    @Test func theStateWriteIsDeferredToALaterMainJob() {
        let context = run(.none, unloadInSameJob: false)
        #expect(context.state == SwiftUIPlayerContext.State(player: 1, name: "in-progress"))
        #expect(context.staleWrites == 0)
    }

    @Test func aWriteDeferredPastUnloadLandsBeforeB57d1fdcAndIsSkippedAfter() {
        let before = run(.none, unloadInSameJob: true)
        #expect(before.loadedNumber == nil)
        #expect(before.state?.player == 1, "the unloaded player's state came back")
        #expect(before.staleWrites == 1)
        let after = run(.loadedPlayer, unloadInSameJob: true)
        #expect(after.state == nil)
        #expect(after.staleWrites == 0)
    }
}
