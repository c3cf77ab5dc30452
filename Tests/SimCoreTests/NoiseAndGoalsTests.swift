import SimCore
import SimTestSupport
import Synchronization
import Testing

/// Always picks the last ready job: a noise lane, listed after the scenario's lanes.
private final class LastReady: Strategy {
    var description: String { "last" }
    func start(seed: UInt64, symbols: SymbolTable) {}
    func pick(_ ready: ReadySet) -> Int { ready.count - 1 }
    func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int { 0 }
}

@Suite struct NoiseAndGoalsTests {
    @Test func aGoalReachedOnTheFailingStepCounts() {
        let result = simulate { sim in
            var flag = false
            sim.sometimes("flag set") { flag }
            sim.always("flag never set") { flag ? "the flag was set" : nil }
            sim.post(on: "main", "set") { flag = true }
        }
        #expect(result.verdict.isFailure)
        #expect(result.reachedGoals == ["flag set"])
    }

    /// Adding noise runs no user code: the sizing fifo run happens before the variant's first run,
    /// in the process that runs it (so a trap there is caught wherever runs are), and only once.
    @Test func addingNoiseRunsNothingUntilTheFirstRun() {
        let setUps = Mutex(0)
        let scenario = Scenario(name: "counted", summary: "", variants: [.init("a", ""), .init("b", "")]) { sim, _ in
            setUps.withLock { $0 += 1 }
            sim.post(on: "main", "only") {}
        }
        let noisy = scenario.withNoise(lanes: 2)
        #expect(setUps.withLock { $0 } == 0, "withNoise ran the scenario")
        let first = noisy.run(variant: "a", seed: 0, strategy: FIFOStrategy())
        #expect(setUps.withLock { $0 } == 2, "one sizing run of a, then the run itself")
        let again = noisy.run(variant: "a", seed: 0, strategy: FIFOStrategy())
        #expect(setUps.withLock { $0 } == 3, "the size is learned once")
        #expect(first.digest == again.digest)
        // A fresh noisy scenario learns the same size: the same run.
        #expect(
            scenario.withNoise(lanes: 2).run(variant: "a", seed: 0, strategy: FIFOStrategy()).digest == first.digest)
    }

    @Test func noiseLanesTickWhileTheScenarioWorksAndStopWithIt() {
        // One scenario job now and one 5 ms later: the noise ticks beside the first, waits for the
        // timer (racing it at its deadline), and stops once the scenario has nothing left.
        let scenario = Scenario(name: "two-jobs", summary: "", variants: [.init("only", "")]) { sim, _ in
            sim.post(on: "main", "first") {}
            sim.after(.milliseconds(5), on: sim.lane("main"), "second") {}
        }
        let sink = MemorySink()
        let result = scenario.withNoise(lanes: 2).run(variant: "only", seed: 0, strategy: FIFOStrategy(), sink: sink)
        #expect(result.verdict == .pass)
        let picks = sink.events.filter { sink.text($0.kind) == "sched.pick" }
        let noise = picks.filter { sink.text($0.lane).hasPrefix("noise.") }
        #expect(Set(noise.map { sink.text($0.lane) }) == ["noise.1", "noise.2"])
        #expect(noise.contains { $0.time == 5_000_000 }, "a tick races the scenario's timer at its deadline")
        #expect(picks.last.map { sink.text($0.lane) }.map { $0.hasPrefix("noise.") } == true)
        #expect(result.endTime == 5_000_000, "noise never keeps the run going past the scenario")
    }

    @Test func aNoiseLanePostsAtMostItsTicks() {
        let sink = MemorySink()
        // Favoured by the strategy, the lane would tick while `main` has work; it stops at 2.
        _ = simulate(strategy: LastReady(), sink: sink) { sim in
            for _ in 0..<10 { sim.post(on: "main", "work") {} }
            sim.addNoise(lanes: 1, ticks: 2)
        }
        let ticks = sink.events.filter { sink.text($0.kind) == "sched.pick" && sink.text($0.lane) == "noise.1" }
        #expect(ticks.count == 2)
    }

    @Test func noiseIsBoundedEvenWhenAStrategyFavoursIt() {
        // A strategy that always picks the last ready job (a noise lane, listed after the scenario's):
        // the noise lanes run out of ticks and the scenario still finishes within its limits.
        let scenario = Scenario(name: "busy", summary: "", variants: [.init("only", "")]) { sim, _ in
            for _ in 0..<20 { sim.post(on: "main", "work") {} }
        }
        let result = scenario.withNoise(lanes: 3).run(variant: "only", seed: 0, strategy: LastReady())
        #expect(result.verdict == .pass)
        #expect(result.steps <= 20 + 3 * (2 * 20 + 16))
    }
}

@Suite struct DelayHoldTests {
    @Test func aDelayPassesTheFifoJobOverOnceOrHoldsItBackUntilNothingElseIsReady() {
        // Delay at the first pick: `a.1` (fifo) is passed over for one other job, or held back
        // behind every other job (its lane's second job waits behind it).
        var orders = Set<[String]>()
        // Every third seed spreads its delays over the estimate itself (1 step): the first pick.
        for seed in stride(from: UInt64(0), to: 120, by: 3) {
            let log = OrderLog()
            _ = simulate(seed: seed, strategy: DelayBoundedStrategy(delays: 1, estimatedSteps: 1)) { sim in
                sim.post(on: "a", "job") { log.append("a.1") }
                sim.post(on: "b", "job") { log.append("b.1") }
                sim.post(on: "c", "job") { log.append("c.1") }
                sim.post(on: "b", "job") { log.append("b.2") }
            }
            #expect(log.entries.first != "a.1", "the delayed job never runs first")
            orders.insert(log.entries)
        }
        #expect(orders.contains(["b.1", "a.1", "c.1", "b.2"]) || orders.contains(["c.1", "a.1", "b.1", "b.2"]))
        #expect(orders.contains(["b.1", "c.1", "b.2", "a.1"]), "held back until nothing else was ready")
    }
}
