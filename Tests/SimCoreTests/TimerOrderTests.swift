import Testing

@testable import SimCore

/// Same-instant timers are a choice (issue #40): timers of one lane that fall due at one instant run
/// in an order the strategy picks, a recorded `timer.order <lane>` decision (`fifo`: the order set);
/// deadlines never move.
@Suite struct TimerOrderTests {
    final class Log: @unchecked Sendable {
        var fired: [String] = []
        var times: [Int64] = []
    }

    static func scenario(_ log: Log, lanes: [String]) -> Scenario {
        Scenario(name: "timers", summary: "", variants: [.init("v", "")]) { simulation, _ in
            log.fired = []
            log.times = []
            for (index, lane) in lanes.enumerated() {
                simulation.after(.milliseconds(300), on: simulation.lane(lane), "timer.\(index)") {
                    log.fired.append("t\(index)")
                    log.times.append(simulation.now)
                }
            }
        }
    }

    @Test func fifoKeepsTheOrderTheTimersWereSet() {
        let log = Log()
        let result = Self.scenario(log, lanes: ["main", "main", "main"]).run(
            variant: "v", seed: 0, strategy: FIFOStrategy())
        #expect(log.fired == ["t0", "t1", "t2"])
        #expect(log.times == [300_000_000, 300_000_000, 300_000_000], "no deadline moves")
        let orders = result.tape.decisions.filter { result.tape.text($0.label) == "timer.order main" }
        #expect(orders.count == 2 && orders.allSatisfy { $0.kind == .permute && $0.chosen == 0 })
    }

    @Test func aLanePrioritisingStrategyRunsEveryOrderOfOneLanesTies() {
        var orders = Set<[String]>()
        let log = Log()
        let scenario = Self.scenario(log, lanes: ["main", "main", "main"])
        for seed: UInt64 in 0..<200 {
            _ = scenario.run(variant: "v", seed: seed, strategy: PCTStrategy())
            orders.insert(log.fired)
            #expect(log.times.allSatisfy { $0 == 300_000_000 })
        }
        #expect(orders.count == 6, "pct reaches all 3! orders of three timers of one lane: \(orders)")
    }

    @Test func dfsExploresBothOrdersOfTwoTies() {
        let log = Log()
        let scenario = Self.scenario(log, lanes: ["main", "main"])
        let strategy = DFSStrategy()
        var orders = Set<[String]>()
        while strategy.hasMore {
            _ = scenario.run(variant: "v", seed: 0, strategy: strategy)
            orders.insert(log.fired)
        }
        #expect(orders == [["t0", "t1"], ["t1", "t0"]])
    }

    @Test func tiesOnDifferentLanesArePicksNotAnOrderDecision() {
        let log = Log()
        let result = Self.scenario(log, lanes: ["a", "b"]).run(variant: "v", seed: 0, strategy: RandomStrategy())
        #expect(!result.tape.decisions.contains { $0.kind == .permute }, "each lane's timer is a candidate")
        #expect(result.tape.decisions.contains { $0.kind == .pick })
    }

    @Test func aCancelledTimerOfAGroupLetsTheNextOneRun() {
        let log = Log()
        let scenario = Scenario(name: "cancel", summary: "", variants: [.init("v", "")]) { simulation, _ in
            log.fired = []
            let main = simulation.lane("main")
            var second: TimerHandle?
            simulation.after(.milliseconds(300), on: main, "first") {
                log.fired.append("first")
                if let second { simulation.cancel(second) }
            }
            second = simulation.after(.milliseconds(300), on: main, "second") { log.fired.append("second") }
            simulation.after(.milliseconds(300), on: main, "third") { log.fired.append("third") }
        }
        _ = scenario.run(variant: "v", seed: 0, strategy: FIFOStrategy())
        #expect(log.fired == ["first", "third"])
    }
}
