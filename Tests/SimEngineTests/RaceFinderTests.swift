import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// `RaceFinder` (the race `explain` names): a non-fifo, non-noise decision whose flip back to fifo
/// (every other decision kept) removes the failure — checked against a brute-force flip of every
/// decision, over the Traces/ corpus and noisy traces of every built-in bug.
@Suite struct RaceFinderTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Whether the committed trace `name` ends in a crash (its schedule would trap this process when
    /// re-run: `explain` does not look for its race and says so, ExplainCommandTests).
    private static func endsInCrash(_ name: String) -> Bool {
        guard let input = try? TraceInput(path: root.appendingPathComponent("Traces/\(name)").path),
            case .crashed = input.footer?.verdict
        else { return false }
        return true
    }

    static let allTraces: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Traces").path)) ?? [])
        .filter { $0.hasSuffix(".simtrace") }.sorted()

    /// The corpus but the traces that end in a crash.
    static let corpus = allTraces.filter { !endsInCrash($0) }

    /// Tape positions (1-based) of the non-fifo decisions whose flip alone removes the failure, and
    /// the schedule's entries by number — computed here, one re-run per decision.
    private func bruteForce(_ plan: RunPlan, _ input: TraceInput, _ target: FailureSignature)
        -> (removing: Set<Int>, entries: [Int: Schedule.Entry])
    {
        let observer = ScheduleObserver(ReplayStrategy(tape: input.tape), keepsReadySets: true)
        _ = plan.run(seed: input.header.seed, strategy: observer)
        let schedule = observer.schedule
        var removing: Set<Int> = []
        for index in schedule.deviations {
            let others = schedule.deviations.filter { $0 != index }
            let flipped = plan.run(
                seed: input.header.seed, strategy: ScheduleStrategy(schedule: schedule.keeping(others)))
            if !target.matches(flipped.verdict) { removing.insert(schedule.entries[index].number) }
        }
        let entries = Dictionary(uniqueKeysWithValues: schedule.entries.map { ($0.number, $0) })
        return (removing, entries)
    }

    /// The race the finder names for the trace at `path`, checked against the brute force; the
    /// trace's failure is explained (certain with its whole schedule kept) as `explain` needs.
    private func checkRace(_ path: String, _ what: String) throws {
        let input = try TraceInput(path: path)
        let plan = try input.plan(in: ScenarioCatalog(BuiltinScenarios.all))
        let target = FailureSignature(try #require(input.footer?.verdict, "\(what): no verdict"))
        let explained = Explainer(plan: plan, input: input, target: target, runs: 2, jobs: 1).explain()
        #expect(explained.reproduces, "\(what): not explained")
        let races = RaceFinder(plan: plan, seed: input.header.seed, tape: input.tape, target: target).find()
        #expect(races.reproduces, "\(what): the schedule kept by identity no longer fails")
        let expected = bruteForce(plan, input, target)
        guard let race = races.race else {
            // No race named: then no non-noise flip removes the failure (or fifo fails too).
            let real = expected.removing.filter { n in
                expected.entries[n].map { entry in
                    !RaceFinder.isNoise(entry.job.lane) && entry.overtaken.contains { !RaceFinder.isNoise($0.lane) }
                } == true
            }
            #expect(real.isEmpty || races.failsUnderFifo, "\(what): flips \(real) remove it")
            return
        }
        let number = race.number
        #expect(expected.removing.contains(number), "\(what): decision \(number) is not one whose flip removes it")
        let entry = try #require(expected.entries[number])
        #expect(entry.isDeviation, "\(what): decision \(number) is the fifo choice")
        #expect(!RaceFinder.isNoise(entry.job.lane), "\(what): the race is a noise job")
        #expect(race.job == entry.job)
        if entry.kind == .pick {
            #expect(!race.overtook.isEmpty && race.overtook.allSatisfy { !RaceFinder.isNoise($0.lane) }, "\(what)")
            #expect(race.sentence.contains(" overtook "), "\(what): \(race.sentence)")
        }
        // No earlier non-noise decision removes it: the first one is named.
        let earlier = expected.removing.filter { n in
            n < number && expected.entries[n].map { !RaceFinder.isNoise($0.job.lane) } == true
        }
        #expect(
            earlier.allSatisfy { n in expected.entries[n]?.overtaken.allSatisfy { RaceFinder.isNoise($0.lane) } == true
            })
    }

    @Test func theCorpusHoldsTracesBesideThoseThatEndInACrash() {
        #expect(Self.corpus.count >= 10 && Self.corpus.count < Self.allTraces.count, "\(Self.allTraces)")
    }

    @Test(arguments: corpus)
    func theRaceOfEachRecordedTraceIsTheFirstFlipThatRemovesItsFailure(_ name: String) throws {
        try checkRace(Self.root.appendingPathComponent("Traces/\(name)").path, name)
    }

    /// The built-in app scenarios with a bug, but those whose recorded trace ends in a crash (a trap
    /// re-run in this process would end the test run).
    static let bugScenarios: [String] = {
        let crashing = Set(
            allTraces.filter(endsInCrash).compactMap { name in
                try? TraceInput(path: root.appendingPathComponent("Traces/\(name)").path).header.scenario
            })
        return BuiltinScenarios.all.filter { $0.group == nil && $0.hasVariant("buggy") && !crashing.contains($0.name) }
            .map(\.name)
    }()

    /// Noisy traces (3 noise lanes), not shrunk (so noise departures stay in them): the race is never
    /// a noise job, and its flip removes the failure.
    @Test(arguments: bugScenarios)
    func theRaceUnderNoiseIsNeverANoiseJob(_ name: String) throws {
        let directory = try makeTemporaryDirectory("race-noise")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = try ScenarioCatalog(BuiltinScenarios.all).scenario(named: name)
        let plan = RunPlan.probed(
            scenario: scenario, variant: "buggy", strategy: StrategySpec(kind: .random), noise: 3,
            carriers: scenario.bugNeeds == .preemptLocks ? .preemptLocks : .off)
        let result = try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: 0..<500, jobs: 1),
            options: .init(directory: directory.path, shrink: false)
        ).run()
        let paths = result.findings.compactMap(\.path).sorted {
            $0.split(separator: "/").last! < $1.split(separator: "/").last!
        }
        let path = try #require(paths.first, "\(name) --noise 3: no failure in 0..<500")
        try checkRace(path, "\(name) --noise 3")
    }
}
