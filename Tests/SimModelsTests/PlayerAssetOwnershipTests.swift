import SimCore
import SimModels
import SimTestSupport
import Testing

/// A Player session owns the assets it creates (issue #12): an input the scenario keeps no reference
/// to still saves its text on commit; and if the session itself is gone, the pending commit fails the
/// run instead of silently saving nothing.
@Suite struct PlayerAssetOwnershipTests {
    private static func session(_ simulation: Simulation) -> PlayerSession {
        PlayerSession(
            simulation, data: ["user.name": ""],
            states: [
                PlayerFlowState("FORM", view: "form", transitions: ["next": "DONE"]),
                PlayerFlowState("DONE", view: nil),
            ],
            views: ["form": ["user.name"]])
    }

    /// Sets up: an input used only by one job (its reference dropped after), then a commit later.
    /// `keepSession` decides whether anything holds the session past set-up.
    private static func run(keepSession: Bool) -> (RunResult, saved: String?) {
        let saved = ValueBox<String?>(nil)
        let result = simulate { simulation in
            let player = session(simulation)
            let next = player.action("next", value: "next")
            do {
                let input = player.input("name", binding: "user.name")
                simulation.after(.milliseconds(10), on: simulation.lane("user"), "type") {
                    input.focus()
                    input.type("Ada")
                }
            }
            let data = player.data
            simulation.after(.milliseconds(20), on: simulation.lane("user"), "commit") {
                next.commitCallbacksThenCall()
                saved.value = data.get("user.name")
            }
            if keepSession {
                simulation.atEnd("session-kept") {
                    _ = player
                    return nil
                }
            }
            player.start()
        }
        return (result, saved.value)
    }

    @Test func anInputTheScenarioDroppedStillSavesOnCommit() {
        let (result, saved) = Self.run(keepSession: true)
        #expect(result.verdict == .pass, "\(result.verdict)")
        #expect(saved == "Ada", "the session's input committed its text")
    }

    @Test func aFreedSessionWithAPendingCommitFailsTheRunLoudly() {
        let (result, saved) = Self.run(keepSession: false)
        #expect(result.verdict.oracle == "player-asset-alive", "\(result.verdict)")
        #expect(result.verdict.message.contains("input 'name' was freed"))
        #expect(saved != "Ada")
    }
}
