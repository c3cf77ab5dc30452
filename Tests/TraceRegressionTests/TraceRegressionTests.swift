import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTesting
import Testing

/// The committed corpus, every `Traces/*.simtrace`, replayed on every test run through `SimTesting`
/// as a user's package would replay its own.
let builtinCorpus = TraceCorpus(scenarios: BuiltinScenarios.all)

@Suite struct TraceRegressionTests {
    @Test func theCorpusHoldsATraceForEveryBuggyScenario() throws {
        let recorded = builtinCorpus.recordedScenarios()
        #expect(!recorded.isEmpty, "Traces/ holds no readable .simtrace")
        let covered = Set(recorded.values)
        for scenario in BuiltinScenarios.all where scenario.hasVariant("buggy") {
            #expect(covered.contains(scenario.name), "no committed trace for \(scenario.name)")
        }
        let readme = try #require(readText(builtinCorpus.directory + "/README.md"))
        for name in recorded.keys.sorted() {
            #expect(readme.contains(name), "Traces/README.md has no line for \(name)")
        }
    }

    @Test(arguments: builtinCorpus.traces)
    func replaysWithoutDivergenceAndWithItsRecordedVerdict(_ trace: CorpusTrace) throws {
        if trace.recordsCrash {
            // Following this schedule traps again: in-process it would kill the test runner, so it is
            // replayed as users replay it, by `simrun replay` in a child process.
            let run = try SimrunProcess.run(["replay", trace.path])
            #expect(run.status == 0, "\(trace.name): \(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains(": identical — crashed at event"), "\(trace.name): \(run.stdout)")
            return
        }
        if let concurrency = builtinCorpus.scenario(of: trace)?.concurrency, concurrency != .kernel {
            // @MainActor code is captured only where simrun owns main: replay in a simrun process. Plain
            // actor code too: the traces are recorded by simrun (executor-factory route), and the test
            // process's enqueue-hook route runs an actor-to-actor hop without the job that route records.
            let replay = try SimrunProcess.run(["replay", trace.path])
            #expect(
                replay.status == 0 && replay.stdout.contains("identical"),
                "\(trace.name): \(replay.stdout)\(replay.stderr)")
            return
        }
        builtinCorpus.replay(trace)
    }

    @Test(arguments: builtinCorpus.traces)
    func theFixedVariantPassesOnTheSameSchedule(_ trace: CorpusTrace) throws {
        if let concurrency = builtinCorpus.scenario(of: trace)?.concurrency, concurrency != .kernel {
            // Inconclusive fails here too, unless the fix removes the race itself (checked, not
            // assumed: then a pct campaign on the fixed variant must pass instead).
            let replay = try SimrunProcess.run(["replay", trace.path, "--variant", "fixed"])
            let notes = replay.stderr.split(separator: "\n").filter { $0.hasPrefix("note: decision") }
            let racesRemoved =
                replay.status == 2 && !notes.isEmpty
                && notes.allSatisfy { $0.contains(" never ran here") || $0.contains(" ran only after ") }
            #expect(replay.status == 0 || racesRemoved, "\(trace.name) on fixed: \(replay.stdout)\(replay.stderr)")
            guard racesRemoved, let scenario = builtinCorpus.scenario(of: trace) else { return }
            let campaign = try SimrunProcess.run([
                "fuzz", scenario.name, "--variant", "fixed", "--seeds", "0..<500", "--no-show", "--out",
                try makeTemporaryDirectory("fixed-campaign").path,
            ])
            #expect(campaign.status == 0, "\(trace.name): the fixed variant, which removes the race, fails elsewhere")
            return
        }
        builtinCorpus.replayOnFixed(trace)
    }
}

/// The file's text, or nil when it cannot be read.
private func readText(_ path: String) -> String? {
    try? String(contentsOfFile: path, encoding: .utf8)
}
