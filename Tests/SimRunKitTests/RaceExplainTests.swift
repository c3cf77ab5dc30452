import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// `explain` names the race: a non-fifo, non-noise decision whose flip back to fifo (every other
/// decision kept) removes the failure — checked against a brute-force flip of every decision.
@Suite struct RaceExplainTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let corpus: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Traces").path)) ?? [])
        .filter { $0.hasSuffix(".simtrace") }.sorted()

    /// Tape positions (1-based) of the non-fifo decisions whose flip alone removes the failure, and
    /// the schedule's entries by number — computed here, one re-run per decision.
    private func bruteForce(_ path: String) throws -> (removing: Set<Int>, entries: [Int: Schedule.Entry]) {
        let input = try TraceInput(path: path)
        let plan = try input.plan(in: ScenarioCatalog(BuiltinScenarios.all))
        let target = FailureSignature(try #require(input.footer?.verdict))
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

    /// The race `simrun explain --json` names, checked against the brute force.
    private func checkExplain(_ path: String, _ what: String) throws {
        let explained = Understanding.simrun(["explain", path, "--runs", "2", "--json"])
        let (status, out) = (explained.status, explained.out)
        #expect(status == 0, "\(what): \(out)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "\(what): \(out)")
        if document["flipped"] is NSNull {
            // A crash: not re-run in process, and said so.
            #expect(out.contains("\"outcome\""), "\(what)")
            return
        }
        let expected = try bruteForce(path)
        guard let race = document["race"] as? [String: Any], let number = race["decision"] as? Int else {
            // No race named: then no non-noise flip removes the failure (or fifo fails too).
            let real = expected.removing.filter { n in
                expected.entries[n].map { entry in
                    !RaceFinder.isNoise(entry.job.lane) && entry.overtaken.contains { !RaceFinder.isNoise($0.lane) }
                } == true
            }
            #expect(real.isEmpty || document["failsUnderFifo"] as? Bool == true, "\(what): flips \(real) remove it")
            return
        }
        #expect(expected.removing.contains(number), "\(what): decision \(number) is not one whose flip removes it")
        let entry = try #require(expected.entries[number])
        #expect(entry.isDeviation, "\(what): decision \(number) is the fifo choice")
        #expect(!RaceFinder.isNoise(entry.job.lane), "\(what): the race is a noise job")
        let overtook = try #require(race["overtook"] as? [String])
        if entry.kind == .pick {
            #expect(!overtook.isEmpty && overtook.allSatisfy { !$0.hasPrefix("noise.") }, "\(what): \(overtook)")
        }
        // No earlier non-noise decision removes it: the first one is named.
        let earlier = expected.removing.filter { n in
            n < number && expected.entries[n].map { !RaceFinder.isNoise($0.job.lane) } == true
        }
        #expect(
            earlier.allSatisfy { n in expected.entries[n]?.overtaken.allSatisfy { RaceFinder.isNoise($0.lane) } == true
            })
    }

    /// Every trace of the corpus but those that end in a crash (explain's own table re-runs them, and
    /// in this test's process a trap would end the test run; explain skips their race and says so).
    @Test(arguments: corpus)
    func explainNamesTheRaceOfEachRecordedTrace(_ name: String) throws {
        let path = Self.root.appendingPathComponent("Traces/\(name)").path
        if case .crashed = try TraceInput(path: path).footer?.verdict { return }
        try checkExplain(path, name)
    }

    /// The built-in app scenarios with a bug, but those whose recorded trace ends in a crash (a trap
    /// re-run in this process would end the test run).
    static let bugScenarios: [String] = {
        let crashing = Set(
            corpus.compactMap { name -> String? in
                guard let input = try? TraceInput(path: root.appendingPathComponent("Traces/\(name)").path),
                    case .crashed = input.footer?.verdict
                else { return nil }
                return input.header.scenario
            })
        return BuiltinScenarios.all.filter { $0.group == nil && $0.hasVariant("buggy") && !crashing.contains($0.name) }
            .map(\.name)
    }()

    /// Noisy traces (`--noise 3`), not shrunk (so noise departures stay in them): the race is never a
    /// noise job, and its flip removes the failure.
    @Test(arguments: bugScenarios)
    func explainNamesTheRaceUnderNoise(_ scenario: String) throws {
        let directory = try makeTemporaryDirectory("race-noise")
        let out = directory.appendingPathComponent("found").path
        let needs = BuiltinScenarios.all.first { $0.name == scenario }?.bugNeeds ?? .off
        let run = Understanding.simrun(
            [
                "fuzz", scenario, "--noise", "3", "--strategy", "random", "--seeds", "0..<500", "--no-shrink",
                "--no-show", "--out", out,
            ] + (needs == .preemptLocks ? ["--preempt"] : []))
        #expect(run.status == 1, "\(scenario): \(run.out)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".simtrace") }
        let path = out + "/" + (try #require(names.sorted().first))
        try checkExplain(path, "\(scenario) --noise 3")
    }

    @Test func theSentenceSaysWhoOvertookWhom() throws {
        let path = Self.root.appendingPathComponent(
            "Traces/actor-reentrancy-cache-buggy-cache-holds-newest-response.simtrace"
        ).path
        let explained = Understanding.simrun(["explain", path, "--runs", "2"])
        let (status, out) = (explained.status, explained.out)
        #expect(status == 0)
        let line = try #require(out.split(separator: "\n").first { $0.hasPrefix("The race: decision ") })
        #expect(line.contains(" overtook ") && line.contains("the failure goes away"), "\(line)")
    }
}
