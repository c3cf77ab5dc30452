import SimCore
import SimTestSupport
import Testing

/// Three lanes with two jobs each: enough interleavings to tell strategies apart.
func threeLanes(_ sim: Simulation, log: OrderLog) {
    for lane in ["a", "b", "c"] {
        for step in 1...2 {
            sim.post(on: lane, "step") { log.append("\(lane)\(step)") }
        }
    }
}

func order(seed: UInt64, _ strategy: any Strategy) -> [String] {
    let log = OrderLog()
    _ = simulate(seed: seed, strategy: strategy) { threeLanes($0, log: log) }
    return log.entries
}

@Suite struct StrategyTests {
    @Test func fifoRunsJobsInInsertionOrder() {
        #expect(order(seed: 9, FIFOStrategy()) == ["a1", "a2", "b1", "b2", "c1", "c2"])
    }

    @Test(arguments: ["random", "pct", "pct:depth=5", "delay", "portfolio"])
    func randomizedStrategiesAreReproducibleFromTheirSeed(_ name: String) throws {
        let spec = try #require(StrategySpec(parsing: name))
        var distinct = Set<[String]>()
        for seed in 0..<25 {
            let first = order(seed: UInt64(seed), spec.makeStrategy(estimatedSteps: 6))
            let again = order(seed: UInt64(seed), spec.makeStrategy(estimatedSteps: 6))
            #expect(first == again, "seed \(seed) of \(name) gave two schedules")
            distinct.insert(first)
        }
        #expect(distinct.count > 1, "\(name) never varied the schedule")
    }

    @Test func laneOrderIsAlwaysFIFOWithinALane() {
        for seed in 0..<50 {
            let entries = order(seed: UInt64(seed), RandomStrategy())
            for lane in ["a", "b", "c"] {
                let mine = entries.filter { $0.hasPrefix(lane) }
                #expect(mine == ["\(lane)1", "\(lane)2"])
            }
        }
    }

    @Test func dfsEnumeratesEveryInterleavingAndSaysWhenDone() {
        // Two lanes of two jobs: C(4,2) = 6 interleavings; with an unbounded budget dfs must see
        // each, then report exhaustion. Bounds grow from 0, so a schedule with few preemptions runs
        // again in later rounds: count distinct orders.
        let strategy = DFSStrategy(preemptionBound: 10)
        var seen: [[String]] = []
        while strategy.hasMore {
            let log = OrderLog()
            _ = simulate(strategy: strategy) { sim in
                for lane in ["a", "b"] {
                    for step in 1...2 { sim.post(on: lane, "step") { log.append("\(lane)\(step)") } }
                }
            }
            seen.append(log.entries)
        }
        #expect(strategy.isExhausted)
        #expect(Set(seen).count == 6)
        #expect(strategy.exhaustedRounds.map(\.bound) == Array(0...10))
        #expect(strategy.exhaustedRounds.first?.runs == 1, "bound 0 is the default order alone")
    }

    @Test func dfsPreemptionBoundLimitsTheSpace() {
        func distinct(bound: Int) -> Int {
            let strategy = DFSStrategy(preemptionBound: bound)
            var orders = Set<[String]>()
            while strategy.hasMore {
                let log = OrderLog()
                _ = simulate(strategy: strategy) { sim in
                    for lane in ["a", "b", "c"] {
                        for step in 1...3 { sim.post(on: lane, "step") { log.append("\(lane)\(step)") } }
                    }
                }
                orders.insert(log.entries)
            }
            return orders.count
        }
        let zero = distinct(bound: 0)
        let one = distinct(bound: 1)
        let many = distinct(bound: 20)
        #expect(zero == 1 && zero < one && one < many)
        #expect(many == 1680, "9!/(3!3!3!) interleavings of three lanes of three jobs")
    }

    @Test func dfsFindsAnEarlyDepartureBeforeTheDeepTreeUnderNoise() {
        // The bug needs `late` to run before `early` at the very first pick; three noise lanes add
        // many later decisions. Iterative bounding reaches single departures after a few runs;
        // the deepest-first walk of the whole bound-2 tree would not within the budget.
        let scenario = Scenario(name: "early", summary: "", variants: [.init("buggy", "")]) { sim, _ in
            let early = ValueBox(false)
            sim.post(on: "a", "early") { early.value = true }
            sim.post(on: "b", "late") { if !early.value { sim.reach("late first") } }
            for _ in 0..<6 { sim.post(on: "a", "more") {} }
            sim.sometimes("late first")
            sim.always("early first") {
                sim.pendingJobs(on: sim.lane("b")) == 0 && !early.value ? "late ran first" : nil
            }
        }
        let noisy = scenario.withNoise(lanes: 3)
        let strategy = DFSStrategy(preemptionBound: 2)
        var runs = 0
        var found = false
        while strategy.hasMore && runs < 500 && !found {
            found = noisy.run(variant: "buggy", seed: UInt64(runs), strategy: strategy).verdict.isFailure
            runs += 1
        }
        #expect(found, "not found in \(runs) schedules")
        #expect(strategy.exhaustedRounds.map(\.bound) == [0])
    }

    @Test func dfsEnumeratesDataChoicesToo() {
        // Non-default data values are bounded apart from preemptions: bound 0 keeps the defaults,
        // bound 1 one non-default value at a time, bound 2 every combination of the two sites.
        func values(bound: Int) -> Set<[Int]> {
            let strategy = DFSStrategy(preemptionBound: bound)
            var values = Set<[Int]>()
            while strategy.hasMore {
                var picked: [Int] = []
                _ = simulate(strategy: strategy) { sim in
                    sim.post(on: "main", "choose") {
                        picked.append(sim.choose(3, "first"))
                        picked.append(sim.choose(2, "second"))
                    }
                }
                values.insert(picked)
            }
            return values
        }
        #expect(values(bound: 0) == [[0, 0]])
        #expect(values(bound: 1) == [[0, 0], [1, 0], [2, 0], [0, 1]])
        #expect(values(bound: 2).count == 6)
    }

    @Test func replayFollowsATapeByJobIdentity() {
        let recorded = simulate(seed: 4, strategy: RandomStrategy()) { threeLanes($0, log: OrderLog()) }
        let expected = order(seed: 4, RandomStrategy())
        #expect(order(seed: 0, ReplayStrategy(tape: recorded.tape)) == expected)

        // An unrelated lane added to the scenario shifts indices but not identities.
        let log = OrderLog()
        let replay = ReplayStrategy(tape: recorded.tape)
        _ = simulate(strategy: replay) { sim in
            sim.post(on: "0-extra", "unrelated") {}
            threeLanes(sim, log: log)
        }
        #expect(log.entries == expected)
    }

    @Test func replaySaysWhereItCannotFollow() throws {
        // A schedule that takes a job of lane b by choice, replayed on code where lane b is gone.
        let runs = (0..<100).map { seed in
            simulate(seed: UInt64(seed), strategy: RandomStrategy()) { threeLanes($0, log: OrderLog()) }
        }
        let recorded = try #require(
            runs.first { run in run.tape.decisions.contains { run.tape.text($0.lane) == "b" } })
        let replay = ReplayStrategy(tape: recorded.tape)
        _ = simulate(strategy: replay) { sim in
            for lane in ["a", "x", "c"] {
                for step in 1...2 { sim.post(on: lane, "step") { _ = step } }
            }
        }
        #expect(!replay.notes.isEmpty)
        #expect(replay.notes.contains { $0.contains("b/step") })
    }

    @Test func strategySpecParsesNamesAndParameters() {
        #expect(StrategySpec(parsing: "pct:depth=5")?.parameter == 5)
        #expect(StrategySpec(parsing: "delay:bound=1")?.kind == .delay)
        #expect(StrategySpec(parsing: "dfs")?.kind == .dfs)
        #expect(StrategySpec(parsing: "nonsense") == nil)
        #expect(StrategySpec(parsing: "pct:depth=x") == nil)
    }

    @Test func buggifyNeverFiresUnderFifoAndSometimesUnderRandom() {
        var fired = 0
        for seed in 0..<200 {
            _ = simulate(seed: UInt64(seed), strategy: RandomStrategy()) { sim in
                sim.post(on: "main", "job") { if sim.buggify("drop-packet") { fired += 1 } }
            }
            _ = simulate(seed: UInt64(seed)) { sim in
                sim.post(on: "main", "job") { #expect(!sim.buggify("drop-packet")) }
            }
        }
        #expect(fired > 0 && fired < 200)
    }

    @Test func permutationsKeepOrderUnderFifoAndVaryOtherwise() {
        var orders = Set<[Int]>()
        for seed in 0..<100 {
            _ = simulate(seed: UInt64(seed), strategy: RandomStrategy()) { sim in
                sim.post(on: "main", "p") { orders.insert(sim.permutation([1, 2, 3], "callbacks")) }
            }
        }
        #expect(orders.count == 6)
        _ = simulate { sim in
            sim.post(on: "main", "p") { #expect(sim.permutation([1, 2, 3], "callbacks") == [1, 2, 3]) }
        }
    }
}
