import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTesting
import Testing

/// `explore` and `simulate` say what a pass did not explore (issue #40): how many distinct schedules
/// ran, what the runs did not control, and a warning issue (never a silent green) when every schedule
/// was the same or the runs used what simrun does not control.
@Suite struct ExplorationNoteTests {
    private let counterRace = BuiltinScenarios.all.first { $0.name == "counter-race" }!

    @Test func aPassOfOneScheduleSaysNothingWasExplored() throws {
        let directory = try makeTemporaryDirectory("explore-fifo").path
        let exploration = explore(
            counterRace, variant: "fixed", strategy: "fifo", seeds: 0..<20, failureDirectory: directory)
        #expect(exploration.failure == nil && exploration.schedules == 20)
        #expect(exploration.distinctSchedules == 1 && !exploration.distinctSchedulesIsLowerBound)
        #expect(exploration.explorationNote?.hasPrefix("nothing explored") == true, "\(exploration)")
    }

    @Test func anExplorationThatExploredSaysHowMuch() throws {
        let directory = try makeTemporaryDirectory("explore-random").path
        let exploration = explore(
            counterRace, variant: "fixed", strategy: "random", seeds: 0..<100, failureDirectory: directory)
        #expect(exploration.distinctSchedules > 1 && exploration.distinctSchedules <= 100)
        #expect(exploration.explorationNote == nil)
        #expect(exploration.uncontrolled.isEmpty)
    }

    static let unheld = Scenario(name: "unheld", summary: "", variants: [.init("v", "")]) { simulation, _ in
        simulation.post(on: "a", "one") { simulation.noteUncontrolled(.invisibleLock, "Mutex.withLock", at: "one") }
        simulation.post(on: "b", "two") {}
    }

    @Test func aPassOverUncontrolledWorkIsNoPlainPass() throws {
        let directory = try makeTemporaryDirectory("explore-unheld").path
        let exploration = explore(Self.unheld, strategy: "random", seeds: 0..<30, failureDirectory: directory)
        #expect(exploration.failure == nil, "a warning, not a failure")
        #expect(exploration.uncontrolled == [Uncontrolled(kind: .invisibleLock, detail: "Mutex.withLock", site: "one", count: 30)])
        #expect(exploration.explorationNote?.hasPrefix("not a plain pass") == true)
    }

    @Test func simulateSaysItToo() async {
        let exploration = await simulate(seeds: 0..<10, strategy: .fifo) { sim in
            sim.noteUncontrolled(.runLoop, "Timer.scheduledTimer", at: "simulateSaysItToo")
        }
        #expect(exploration.failure == nil)
        #expect(exploration.uncontrolled.map(\.kind) == [.runLoop])
        #expect(exploration.explorationNote?.contains("every schedule was the same") == true, "\(exploration)")
    }
}
