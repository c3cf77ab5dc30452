import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

/// The committed corpus: every `Traces/*.simtrace`, replayed on every test run.
enum TraceCorpus {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Traces")

    static var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".simtrace") }.sorted()
    }

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static let catalog = ScenarioCatalog(BuiltinScenarios.all)
}

@Suite struct TraceRegressionTests {
    /// Swift Testing reports a parameterised test with no arguments as skipped, so an empty corpus
    /// must fail here instead.
    @Test func theCorpusHoldsATraceForEveryBuggyScenario() throws {
        let files = TraceCorpus.files
        #expect(!files.isEmpty, "Traces/ holds no .simtrace")
        var covered = Set<String>()
        for name in files {
            let input = try TraceInput(path: TraceCorpus.path(name))
            covered.insert(input.header.scenario)
        }
        for scenario in BuiltinScenarios.all where scenario.hasVariant("buggy") {
            #expect(covered.contains(scenario.name), "no committed trace for \(scenario.name)")
        }
        let readme = try String(contentsOf: TraceCorpus.directory.appendingPathComponent("README.md"), encoding: .utf8)
        for name in files { #expect(readme.contains(name), "Traces/README.md has no line for \(name)") }
    }

    @Test(arguments: TraceCorpus.files)
    func replaysWithoutDivergenceAndWithItsRecordedVerdict(_ name: String) throws {
        let input = try TraceInput(path: TraceCorpus.path(name))
        let footer = try #require(input.footer, "\(name) is truncated")
        if case .crashed = footer.verdict {
            // Following this schedule traps again: in-process it would kill the test runner, so it is
            // replayed as users replay it, by `simrun replay` in a child process.
            let run = try SimrunProcess.run(["replay", TraceCorpus.path(name)])
            #expect(run.status == 0, "\(name): \(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains(": identical — crashed at event"), "\(name): \(run.stdout)")
            return
        }
        let plan = try input.plan(in: TraceCorpus.catalog)
        #expect(footer.verdict.isFailure, "a committed trace records a bug")
        if plan.scenario.concurrency == .executorFactory {
            // @MainActor code is captured only where simrun owns main: replay in a simrun process.
            let replay = try SimrunProcess.run(["replay", TraceCorpus.path(name)])
            #expect(
                replay.status == 0 && replay.stdout.contains("identical"), "\(name): \(replay.stdout)\(replay.stderr)")
            return
        }
        let outcome = try TraceReplayer(input: input, plan: plan).replayComparing()
        #expect(outcome.divergence == nil, "\(name): \(outcome.divergence?.joined(separator: "\n") ?? "")")
        #expect(outcome.notes.isEmpty, "\(name): \(outcome.notes)")
        #expect(outcome.result.verdict == footer.verdict)
        #expect(outcome.result.digest == footer.digest)
    }

    @Test(arguments: TraceCorpus.files)
    func theFixedVariantPassesOnTheSameSchedule(_ name: String) throws {
        let input = try TraceInput(path: TraceCorpus.path(name))
        let plan = try input.plan(in: TraceCorpus.catalog, variant: "fixed")
        // Inconclusive is a failure — a pass on a schedule whose races never happened tested
        // nothing — with one exception that is checked, not assumed: a fix that removes the race
        // itself (its job no longer exists, or the fixed code runs the overtaken job first, always).
        // Then the replay cannot test the fix, and a pct campaign on the fixed variant must.
        if plan.scenario.concurrency == .executorFactory {
            let replay = try SimrunProcess.run(["replay", TraceCorpus.path(name), "--variant", "fixed"])
            let notes = replay.stderr.split(separator: "\n").filter { $0.hasPrefix("note: decision") }
            let racesRemoved =
                replay.status == ExitStatus.inconclusive && !notes.isEmpty
                && notes.allSatisfy { $0.contains(" never ran here") || $0.contains(" ran only after ") }
            #expect(replay.status == 0 || racesRemoved, "\(name) on fixed: \(replay.stdout)\(replay.stderr)")
            guard racesRemoved else { return }
            let campaign = try SimrunProcess.run([
                "fuzz", input.header.scenario, "--variant", "fixed", "--seeds", "0..<500", "--no-show", "--out",
                try makeTemporaryDirectory("fixed-campaign").path,
            ])
            #expect(campaign.status == 0, "\(name): the fixed variant, which removes the race, fails elsewhere")
            return
        }
        let outcome = TraceReplayer(input: input, plan: plan).replayForVerdict()
        #expect(outcome.result.verdict == .pass, "\(name) on fixed: \(outcome.result.verdict)")
        #expect(outcome.scheduleProblem == nil, "\(name): \(outcome.scheduleProblem ?? "")")
        if outcome.isConclusive { return }
        let racesRemoved = outcome.unfollowed.allSatisfy { $0.reason == .ordered || $0.reason == .missing }
        #expect(racesRemoved, "\(name) on fixed: inconclusive — \(outcome.tally.line); \(outcome.notes)")
        guard racesRemoved else { return }
        var campaign = plan
        campaign.strategy = StrategySpec(kind: .pct)
        let report = Fuzzer(plan: campaign, configuration: Fuzzer.Configuration(seeds: 0..<500, jobs: 1)).run()
        #expect(report.failures == 0, "\(name): the fixed variant, which removes the race, fails elsewhere")
    }
}
