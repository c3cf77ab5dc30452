import Foundation
import SimTestSupport
import Testing

@testable import SimCapture
@testable import SimCore

/// Same-instant timers are a choice for run-loop timers too (issue #40, items 2 and 6): two
/// `Timer.scheduledTimer`s of the main run loop due at one virtual instant are one recorded
/// `timer.order main` decision, and exploration runs both orders, at the instant they asked for.
@Suite(.enabled(if: RunLoopCapturing.isActive, "run-loop timers are the run's where the layer is (Linux)"))
struct RunLoopTimerOrderTests {
    final class Log: @unchecked Sendable {
        var fired: [String] = []
        var times: [Int64] = []
    }

    static func schedule(_ sim: Simulation, _ log: Log) {
        log.fired = []
        log.times = []
        sim.post(on: "main", "schedule") {
            for name in ["first", "second"] {
                _ = Timer.scheduledTimer(withTimeInterval: 0.3, repeats: false) { _ in
                    log.fired.append(name)
                    log.times.append(sim.now)
                }
            }
        }
    }

    @Test func fifoKeepsTheOrderTheTimersWereScheduledAsARecordedDecision() {
        let log = Log()
        let result = simulate { Self.schedule($0, log) }
        #expect(result.verdict == .pass, "\(result.verdict)")
        #expect(log.fired == ["first", "second"] && log.times == [300_000_000, 300_000_000])
        let orders = result.tape.decisions.filter { result.tape.text($0.label) == "timer.order main" }
        #expect(orders.count == 1 && orders.allSatisfy { $0.kind == .permute && $0.chosen == 0 }, "\(orders)")
    }

    @Test func dfsRunsBothOrdersOfTwoRunLoopTimersDueTogether() {
        let log = Log()
        let strategy = DFSStrategy()
        var orders = Set<[String]>()
        var runs = 0
        while strategy.hasMore && runs < 20 {
            _ = simulate(strategy: strategy) { Self.schedule($0, log) }
            orders.insert(log.fired)
            #expect(log.times == [300_000_000, 300_000_000], "no deadline moves")
            runs += 1
        }
        #expect(orders == [["first", "second"], ["second", "first"]])
    }
}
