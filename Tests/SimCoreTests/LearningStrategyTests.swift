import SimCore
import SimTestSupport
import Testing

/// A scenario built so that its bug needs a chain of rare reads-from pairs: a writer writes `x` eight
/// times; a reader reads it and goes on to its next read only while each read saw the write of its
/// own round (a program that branches on what it read). The bug is reaching the end in lockstep. A
/// random walk must hit the whole chain at once (about one schedule in 2^15); a search that keeps
/// schedules showing new pairs keeps each longer lockstep prefix (read `i + 1` is a new site) and
/// extends the chain a link at a time.
let lockstepRounds = 8

func lockstep(_ sim: Simulation) {
    let x = sim.shared("x", 0)
    for round in 1...lockstepRounds {
        sim.post(on: "writer", "write x @\(round)") { x.write(round) }
    }
    func read(_ round: Int) {
        sim.post(on: "reader", "read x @\(round)") {
            guard x.read() == round else { return }
            if round == lockstepRounds {
                sim.fail("lockstep", "every read saw the write of its own round")
            } else {
                read(round + 1)
            }
        }
    }
    read(1)
}

/// Runs seeds 0, 1, 2, … with one strategy object (what a one-thread campaign does) and returns the
/// number of schedules up to and including the first failure, or nil within `limit`.
func schedulesToFirstFailure(_ strategy: any Strategy, limit: Int, _ setUp: (Simulation) -> Void) -> Int? {
    for seed in 0..<limit {
        let result = simulate(seed: UInt64(seed), strategy: strategy, setUp)
        if result.verdict.isFailure { return seed + 1 }
    }
    return nil
}

@Suite struct LearningStrategyTests {
    @Test func coverageGuidedReachesTheLockstepBugInFewerSchedulesThanRandom() throws {
        let limit = 20_000
        let coverage = CoverageGuidedStrategy()
        let guided = try #require(schedulesToFirstFailure(coverage, limit: limit, lockstep))
        let random = schedulesToFirstFailure(RandomStrategy(), limit: limit, lockstep) ?? limit + 1
        // Measured: coverage 695 schedules; random none in 20,000 (both deterministic).
        #expect(guided * 10 < random, "coverage took \(guided) schedules, random \(random)")
        #expect(coverage.corpusCount > 0)
        // Pairs: each of the eight read sites saw the initial value or one of the eight writes, at most.
        #expect(coverage.pairCount >= lockstepRounds && coverage.pairCount <= lockstepRounds * 9)
        #expect(
            coverage.learningNote
                == "coverage learned from \(coverage.pairCount) reads-from pairs (\(coverage.corpusCount) kept schedules)")
    }

    @Test(arguments: ["pos", "surw", "coverage"])
    func aSequenceOfSeedsGivesTheSameSchedulesOnAFreshStrategy(_ name: String) throws {
        let spec = try #require(StrategySpec(parsing: name))
        func tapes() -> [[UInt32]] {
            let strategy = spec.makeStrategy()
            return (0..<30).map { seed in
                simulate(seed: UInt64(seed), strategy: strategy, lockstep).tape.decisions.map(\.chosen)
            }
        }
        let first = tapes()
        #expect(first == tapes())
        #expect(Set(first).count > 1, "different seeds should give different schedules")
    }

    @Test func onlyTheLearningStrategiesRunInSeedOrder() {
        let learning = StrategySpec.Kind.allCases.filter(\.learnsAcrossRuns)
        #expect(learning == [.portfolio, .surw, .coverage, .nsurw, .rff])
        #expect(StrategySpec(parsing: "pos")?.description == "pos")
        #expect(StrategySpec(parsing: "surw")?.description == "surw")
        #expect(StrategySpec(parsing: "coverage")?.description == "coverage")
    }

    @Test func posRedrawsOnlyRacingJobsSoDisjointLanesKeepTheirOrder() {
        // Two lanes on disjoint objects never race: each job keeps the priority it was first given,
        // and the lane whose head has the higher priority runs both its jobs before the other lane
        // runs. A random walk would interleave them in about half the seeds.
        var interleaved = 0
        for seed in 0..<200 {
            let log = OrderLog()
            _ = simulate(seed: UInt64(seed), strategy: POSStrategy()) { sim in
                for lane in ["a", "b"] {
                    sim.post(on: lane, "write \(lane)") { log.append(lane) }
                    sim.post(on: lane, "write \(lane)") { log.append(lane) }
                }
            }
            if log.entries == ["a", "b", "a", "b"] || log.entries == ["b", "a", "b", "a"]
                || log.entries == ["a", "b", "b", "a"] || log.entries == ["b", "a", "a", "b"]
            {
                interleaved += 1
            }
        }
        // The second job of a lane is new when it is first offered, so it draws a fresh priority
        // and may lose: interleavings happen, but less often than under a random walk's 1/2.
        #expect(interleaved > 0 && interleaved < 100)
    }

    @Test func nsurwWeightsLanesByTheEventsTheyHaveLeft() {
        // Lane "long" has nine object jobs, lane "short" one. Uniform over interleavings, the short
        // lane's job lands in each of the ten positions equally often, so it runs first only one time
        // in ten; a random walk runs it first half the time. SURW learns the counts in the first runs.
        let strategy = NSURWStrategy()
        var shortFirst = 0
        for seed in 0..<1_000 {
            let log = OrderLog()
            _ = simulate(seed: UInt64(seed), strategy: strategy) { sim in
                for _ in 0..<9 { sim.post(on: "long", "write x") { log.append("long") } }
                sim.post(on: "short", "write y") { log.append("short") }
            }
            if seed >= 10 && log.entries.first == "short" { shortFirst += 1 }
        }
        #expect(shortFirst > 50 && shortFirst < 200, "short ran first in \(shortFirst) of 990 runs")
    }
}

@Suite struct PublishedLearningStrategyTests {
    /// Lane "long" writes x nine times, lane "short" reads it once: ten interesting events.
    private func tenEvents(_ sim: Simulation, _ log: OrderLog) {
        let x = sim.shared("x", 0)
        for _ in 0..<9 { sim.post(on: "long", "write x") { x.write(1) } }
        sim.post(on: "short", "read x") { log.append("short@\(x.read())") }
    }

    @Test func surwPlacesTheShortLanesEventUniformlyAmongTheInterestingOnes() {
        // Uniform over interleavings of the ten events on x, the read sees no write (runs first) one
        // time in ten; a random walk runs it first half the time.
        let strategy = SURWStrategy()
        var first = 0
        for seed in 0..<1_000 {
            let log = OrderLog()
            _ = simulate(seed: UInt64(seed), strategy: strategy) { tenEvents($0, log) }
            if seed > 0 && log.entries == ["short@0"] { first += 1 }
        }
        #expect(first > 50 && first < 170, "the read ran first in \(first) of 999 runs")
        #expect(strategy.learningNote?.hasPrefix("surw selected from 1 shared cell") == true)
    }

    @Test(arguments: ["surw", "rff", "nsurw"])
    func aLearningCampaignIsTheSameWhenRunAgain(_ name: String) throws {
        let spec = try #require(StrategySpec(parsing: name))
        func campaign() -> [[UInt32]] {
            let strategy = spec.makeStrategy()
            return (0..<200).map { seed in
                simulate(seed: UInt64(seed), strategy: strategy) { sim in
                    let x = sim.shared("x", 0)
                    for lane in ["a", "b", "c"] {
                        sim.post(on: lane, "write x") { x.write(x.read() + 1) }
                        sim.post(on: lane, "read x") { _ = x.read() }
                    }
                }.tape.decisions.map(\.chosen)
            }
        }
        let first = campaign()
        #expect(first == campaign())
        #expect(Set(first).count > 1)
    }

    @Test func rffKeepsSchedulesThatShowNewReadsFromPairs() {
        let strategy = RFFStrategy()
        for seed in 0..<100 {
            _ = simulate(seed: UInt64(seed), strategy: strategy) { sim in
                let x = sim.shared("x", 0)
                sim.post(on: "w1", "write x one") { x.write(1) }
                sim.post(on: "w2", "write x two") { x.write(2) }
                sim.post(on: "r", "read x") { _ = x.read() }
            }
        }
        // Three pairs: the read sees the initial value, one, or two.
        #expect(strategy.pairCount == 3)
        #expect(strategy.corpusCount >= 1 && strategy.corpusCount <= 3)
        #expect(strategy.learningNote == "rff learned from 3 reads-from pairs (\(strategy.corpusCount) kept schedules)")
    }

    @Test func withoutSharedCellsNoneCanLearnAndEachSaysSo() {
        for strategy in [SURWStrategy(), RFFStrategy(), CoverageGuidedStrategy()] as [any Strategy & CampaignLearner] {
            for seed in 0..<10 {
                _ = simulate(seed: UInt64(seed), strategy: strategy) { sim in
                    for lane in ["a", "b"] { sim.post(on: lane, "write y") {} }
                }
            }
            #expect(strategy.learningNote?.contains("cannot") == true, "\(strategy.description)")
        }
    }
}
