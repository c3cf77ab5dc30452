import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTesting
import Testing

/// `SimTesting` from outside its module, as a user's test target uses it: explore a scenario, then
/// replay what it saved as a corpus.
@Suite struct SimTestingTests {
    private let counterRace = BuiltinScenarios.all.first { $0.name == "counter-race" }!

    @Test func exploreRecordsOneIssueWithTheVerdictTheTraceAndTheReplayCommand() throws {
        let directory = try makeTemporaryDirectory("explore").path
        var exploration: Exploration?
        withKnownIssue {
            exploration = explore(
                counterRace, variant: "buggy", strategy: "random", seeds: 0..<200, failureDirectory: directory)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("counter-race/buggy failed at seed") && text.contains("no-lost-update")
                && text.contains("  replay: simrun replay \(directory)/counter-race-buggy-no-lost-update.simtrace")
                && text.contains("--variant fixed")
        }
        let failure = try #require(exploration?.failure)
        #expect(failure.verdict.isFailure)
        #expect(failure.tracePath == directory + "/counter-race-buggy-no-lost-update.simtrace")
        #expect(failure.decisions.saved <= failure.decisions.found)
        #expect(FileManager.default.fileExists(atPath: failure.tracePath))

        // What explore saved is a corpus: it replays as recorded, and the fix passes its schedule.
        let corpus = TraceCorpus(directory: directory, scenarios: [counterRace])
        #expect(corpus.traces.map(\.name) == ["counter-race-buggy-no-lost-update.simtrace"])
        #expect(corpus.replay(corpus.traces[0]))
        #expect(corpus.replayOnFixed(corpus.traces[0]))
        // The buggy variant fails its own schedule: replayOnFixed is not a pass for everything.
        withKnownIssue { #expect(!corpus.replayOnFixed(corpus.traces[0], variant: "buggy")) }
    }

    @Test func exploreOnTheFixedVariantRecordsNoIssue() throws {
        let directory = try makeTemporaryDirectory("explore-fixed").path
        let exploration = explore(
            counterRace, variant: "fixed", strategy: "random", seeds: 0..<100, failureDirectory: directory)
        #expect(exploration.failure == nil)
        #expect(exploration.schedules == 100)
    }

    @Test func exploreRejectsAnUnknownVariantOrStrategy() {
        withKnownIssue {
            explore(counterRace, variant: "no-such-variant", seeds: 0..<1)
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("has no variant 'no-such-variant'")
        }
        withKnownIssue {
            explore(counterRace, strategy: "zigzag", seeds: 0..<1)
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("unknown strategy 'zigzag'")
        }
    }

    @Test func anEmptyCorpusIsOneFailingArgumentNotASkip() throws {
        let corpus = TraceCorpus(directory: try makeTemporaryDirectory("empty-corpus").path, scenarios: [counterRace])
        let traces = corpus.traces
        #expect(traces.count == 1 && traces[0].isMissing)
        withKnownIssue {
            corpus.replay(traces[0])
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("holds no .simtrace")
        }
        withKnownIssue { corpus.replayOnFixed(traces[0]) }
        let missing = TraceCorpus(directory: "/nonexistent-simrun-corpus", scenarios: [counterRace])
        #expect(missing.traces.count == 1 && missing.traces[0].isMissing)
    }

    @Test func aTraceOfAnUnknownScenarioOrCutShortFails() throws {
        let builtin = TraceCorpus(scenarios: BuiltinScenarios.all)
        let trace = try #require(builtin.traces.first { $0.name.hasPrefix("counter-race-buggy-no") })
        // The corpus's scenarios do not include the one the trace names.
        let strangers = TraceCorpus(directory: builtin.directory, scenarios: [])
        withKnownIssue {
            strangers.replay(trace)
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("expected a known scenario")
        }
        // The same file cut in half.
        let directory = try makeTemporaryDirectory("cut-corpus")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace.path))
        try bytes.prefix(bytes.count / 2).write(to: directory.appendingPathComponent(trace.name))
        let cut = TraceCorpus(directory: directory.path, scenarios: BuiltinScenarios.all)
        withKnownIssue { cut.replay(cut.traces[0]) }
    }

    @Test func theCorpusIsFoundAtThePackageRootFromTheTestFile() {
        let corpus = TraceCorpus(scenarios: BuiltinScenarios.all)
        #expect(corpus.directory.hasSuffix("/Traces"))
        #expect(FileManager.default.fileExists(atPath: corpus.directory + "/README.md"))
        #expect(!corpus.traces.contains { $0.isMissing })
    }
}

/// A built-in scenario with `@MainActor` code, `Task {}` and sleeps, explored and replayed in this
/// test process: simrun's load-time constructor installed the executor factory before the runner's
/// `main`, so nothing is refused and no child process runs.
@Suite struct SimTestingExecutorFactoryTests {
    @Test func aMainActorScenarioIsExploredShrunkSavedAndReplayedInProcess() throws {
        let scenario = try #require(BuiltinScenarios.all.first { $0.name == "double-tap-submit" })
        #expect(scenario.concurrency == .executorFactory)
        let directory = try makeTemporaryDirectory("explore-main-actor").path
        var exploration: Exploration?
        withKnownIssue {
            exploration = explore(scenario, variant: "buggy", seeds: 0..<300, failureDirectory: directory)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("double-tap-submit/buggy failed at seed") && text.contains("replay: simrun replay")
        }
        let found = try #require(exploration)
        #expect(found.route == .executorFactory && found.routeNote == nil)
        let failure = try #require(found.failure)
        #expect(FileManager.default.fileExists(atPath: failure.tracePath))
        let corpus = TraceCorpus(directory: directory, scenarios: BuiltinScenarios.all)
        #expect(corpus.traces.count == 1)
        for trace in corpus.traces {
            #expect(corpus.replay(trace))
            #expect(corpus.replayOnFixed(trace))
        }
        let fixed = explore(
            scenario, variant: "fixed", strategy: .pct(depth: 2), seeds: 0..<100, failureDirectory: directory)
        #expect(fixed.failure == nil && fixed.schedules == 100)
    }

    @Test func theCommittedTracesOfMainActorScenariosReplayInProcess() throws {
        let corpus = TraceCorpus(scenarios: BuiltinScenarios.all)
        let traces = corpus.traces.filter { corpus.scenario(of: $0)?.concurrency == .executorFactory }
        #expect(!traces.isEmpty)
        for trace in traces where !trace.recordsCrash {
            #expect(corpus.replay(trace), "\(trace.name)")
        }
    }
}
