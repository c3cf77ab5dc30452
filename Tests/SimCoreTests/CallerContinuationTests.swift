import SimCore
import SimTestSupport
import Testing

/// A call split into steps lets other lanes run in its middle, but nothing else queued on the
/// caller's lane: the caller's lane stays serial.
@Suite struct CallerContinuationTests {
    /// Runs `call` (which splits itself) on `main`, with another `main` job and an `other` job queued.
    private func run(seed: UInt64, _ call: @escaping (Simulation, OrderLog) -> Void) -> [String] {
        let log = OrderLog()
        _ = simulate(seed: seed, strategy: RandomStrategy()) { sim in
            let main = sim.lane("main")
            sim.post(main, sim.symbol("call")) { call(sim, log) }
            sim.post(main, sim.symbol("next")) { log.append("next") }
            sim.post(sim.lane("other"), sim.symbol("other")) { log.append("other") }
        }
        return log.entries
    }

    @Test func theRestOfACallRunsBeforeTheCallersNextJobWhileOtherLanesInterleave() {
        var interleaved = false
        for seed in 0..<UInt64(60) {
            let order = run(seed: seed) { sim, log in
                log.append("start")
                sim.continueCall("rest") { log.append("rest") }
            }
            let position = { (name: String) in order.firstIndex(of: name) ?? -1 }
            #expect(position("start") < position("rest") && position("rest") < position("next"), "\(order)")
            if position("start") < position("other") && position("other") < position("rest") { interleaved = true }
        }
        #expect(interleaved, "another lane runs between the steps of a call for some seed")
    }

    @Test func afterCallWaitsForTheStepsAlreadySplitOffAndRunsAtOnceWithout() {
        for seed in 0..<UInt64(20) {
            let split = run(seed: seed) { sim, log in
                sim.continueCall("rest") { log.append("rest") }
                sim.afterCall("after") { log.append("after") }
                log.append("end of call")
            }
            #expect(split.firstIndex(of: "rest")! < split.firstIndex(of: "after")!, "\(split)")
            let whole = run(seed: seed) { sim, log in
                sim.afterCall("after") { log.append("after") }
                log.append("end of call")
            }
            #expect(whole.firstIndex(of: "after")! < whole.firstIndex(of: "end of call")!, "\(whole)")
        }
    }
}
