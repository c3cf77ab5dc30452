import SimCore
import SimScenarios
import Testing

@testable import SimEngine

/// What a campaign explored (issue #40): distinct schedules counted exactly up to a bound, what the
/// runs did not control counted per kind with the lowest seed's example, figures that do not depend
/// on the number of workers, and one verdict for a pass over uncontrolled work.
@Suite struct ExploredTests {
    static let counterFixed = RunPlan.probed(
        scenario: CounterRace.scenario, variant: "fixed", strategy: StrategySpec(kind: .random))

    @Test func aCampaignCountsItsDistinctSchedulesWhateverTheWorkers() {
        let one = Fuzzer(plan: Self.counterFixed, configuration: .init(seeds: 0..<300, jobs: 1)).run()
        let three = Fuzzer(plan: Self.counterFixed, configuration: .init(seeds: 0..<300, jobs: 3)).run()
        #expect(one.schedules == 300 && one.findings.isEmpty)
        #expect(one.explored.runs == 300)
        #expect(one.explored.distinct > 1 && one.explored.distinct < 300, "\(one.explored.figure)")
        #expect(one.explored == three.explored, "the same seeds, the same schedules")
        // Counted one seed at a time, with no campaign at all.
        let strategy = Self.counterFixed.makeStrategy()
        let digests = Set((0..<300 as Range<UInt64>).map { Self.counterFixed.run(seed: $0, strategy: strategy).scheduleDigest })
        #expect(one.explored.distinct == digests.count)
        #expect(one.explored.note == nil, "explored more than one schedule, controlled everything")
    }

    @Test func aCampaignOfOneScheduleSaysItExploredNothing() {
        var plan = Self.counterFixed
        plan.strategy = .plainOrder
        let report = Fuzzer(plan: plan, configuration: .init(seeds: 0..<20, jobs: 2)).run()
        #expect(report.explored.distinct == 1 && report.explored.exploredNothing)
        #expect(report.explored.note?.hasPrefix("nothing explored: every run took the same schedule") == true)
        #expect(CampaignVerdict(foundSomething: false, interrupted: false, explored: report.explored) == .pass)
    }

    /// Runs that note a lock simrun cannot see on about half the seeds (a data decision decides).
    static let sometimesUnheld = Scenario(name: "sometimes-unheld", summary: "", variants: [.init("v", "")]) {
        simulation, _ in
        simulation.post(on: "a", "one") {
            if simulation.choose(2, "takes the lock") == 1 {
                simulation.noteUncontrolled(.invisibleLock, "Mutex.withLock", at: "seed-dependent")
                simulation.noteUncontrolled(.invisibleLock, "Mutex.withLock", at: "seed-dependent")
            }
            simulation.noteUncontrolled(.runLoop, "Timer.scheduledTimer")
        }
    }

    @Test func uncontrolledWorkIsCountedPerKindWithTheLowestSeedsExample() {
        let plan = RunPlan.probed(scenario: Self.sometimesUnheld, variant: "v", strategy: StrategySpec(kind: .random))
        let one = Fuzzer(plan: plan, configuration: .init(seeds: 0..<100, jobs: 1)).run().explored
        let four = Fuzzer(plan: plan, configuration: .init(seeds: 0..<100, jobs: 4)).run().explored
        #expect(one == four, "the figures do not depend on the workers")
        #expect(one.uncontrolled.map(\.kind) == [.invisibleLock, .runLoop], "by kind name")
        let lock = one.uncontrolled[0]
        let strategy = plan.makeStrategy()
        let lockSeeds = (0..<100 as Range<UInt64>).filter {
            plan.run(seed: $0, strategy: strategy).uncontrolled.contains { $0.kind == .invisibleLock }
        }
        #expect(lock.runs == lockSeeds.count && lock.occurrences == 2 * lockSeeds.count)
        #expect(lock.seed == lockSeeds.first && lock.example.site == "seed-dependent")
        #expect(one.uncontrolled[1].runs == 100)
        #expect(one.note?.hasPrefix("not a plain pass") == true)
        #expect(CampaignVerdict(foundSomething: false, interrupted: false, explored: one) == .inconclusive)
        #expect(CampaignVerdict(foundSomething: true, interrupted: false, explored: one) == .fail)
        #expect(CampaignVerdict(foundSomething: false, interrupted: true, explored: one) == .interrupted)
    }

    @Test func pastTheBoundTheCountIsALowerBoundAndMergesStayOne() {
        var explored = Explored()
        for digest in 0..<UInt64(Explored.maxCounted + 10) { explored.insert(digest &* 0x9E37_79B9_7F4A_7C15) }
        #expect(explored.isLowerBound && explored.distinct == Explored.maxCounted)
        #expect(explored.figure.hasPrefix("more than \(Explored.maxCounted) distinct schedules"))
        var first = Explored()
        var second = Explored()
        for digest: UInt64 in 1...10 { first.insert(digest) }
        for digest: UInt64 in 6...20 { second.insert(digest) }
        var merged = first
        merged.merge(second)
        #expect(merged.distinct == 20 && !merged.isLowerBound, "the union, not the sum")
        merged.merge(explored)
        #expect(merged.isLowerBound && merged.distinct == Explored.maxCounted)
    }

    @Test func theResultDocumentMemberReadsBackAsWritten() throws {
        let plan = RunPlan.probed(scenario: Self.sometimesUnheld, variant: "v", strategy: StrategySpec(kind: .random))
        let explored = Fuzzer(plan: plan, configuration: .init(seeds: 0..<30, jobs: 1)).run().explored
        let withDigests = try #require(Explored(json: try JSONValue(parsing: explored.json(digests: true).text)))
        #expect(withDigests == explored)
        let counted = try #require(Explored(json: try JSONValue(parsing: explored.json().text)))
        #expect(counted.distinct == explored.distinct && counted.uncontrolled == explored.uncontrolled)
        #expect(Explored(json: .object(["runs": .int(1)])) == nil, "not a count of schedules")
    }
}

/// The shrinker reaches a one-departure schedule that removing departures cannot (issue #40):
/// the found run fails through three departures, none enough without the others, while a fourth
/// decision it took in fifo order fails alone.
@Suite struct SingleDepartureShrinkTests {
    final class Choices: Strategy {
        let values: [Int]
        var next = 0
        init(_ values: [Int]) { self.values = values }
        var description: String { "choices" }
        func start(seed: UInt64, symbols: SymbolTable) { next = 0 }
        func pick(_ ready: ReadySet) -> Int { ready.fifoIndex }
        func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
            defer { next += 1 }
            return next < values.count ? values[next] : 0
        }
    }

    static let scenario = Scenario(name: "either", summary: "", variants: [.init("v", "")]) { simulation, _ in
        simulation.post(on: "a", "decide") {
            let a = simulation.choose(2, "a")
            let b = simulation.choose(2, "b")
            let d = simulation.choose(2, "d")
            let c = simulation.choose(2, "c")
            if (a == 1 && b == 1 && d == 1) || c == 1 { simulation.fail("either", "a, b and d, or c") }
        }
    }

    @Test func aFailureOfThreeDeparturesShrinksToTheOneThatSufficesAlone() throws {
        let plan = RunPlan.probed(scenario: Self.scenario, variant: "v", strategy: StrategySpec(kind: .random))
        let found = plan.run(seed: 0, strategy: Choices([1, 1, 1, 0]))
        #expect(found.deviations == 3 && found.verdict.isFailure)
        let outcome = try #require(
            Shrinker(plan: plan, seed: 0, target: FailureSignature(found.verdict)).shrink(found.tape))
        #expect(outcome.result.deviations == 1, "\(outcome.tape.decisions)")
        let kept = try #require(outcome.tape.decisions.first { $0.isDeviation })
        #expect(outcome.tape.text(kept.label) == "c" && kept.chosen == 1)
    }
}
