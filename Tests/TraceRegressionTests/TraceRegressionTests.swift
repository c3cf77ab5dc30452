import Foundation
import SimCore
import SimEngine
import SimScenarios
import SimTestSupport
import SimTesting
import Testing

/// The committed corpus, every `Traces/*.simtrace`, replayed on every test run through `SimTesting`
/// as a user's package would replay its own: through the package's simrun executable, so that a
/// trace whose run trapped, and `@MainActor` scenarios, replay like any other.
let builtinCorpus = TraceCorpus(scenarios: BuiltinScenarios.all, executable: SimrunProcess.executable.path)

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
        builtinCorpus.replay(trace)
    }

    @Test(arguments: builtinCorpus.traces)
    func theFixedVariantPassesOnTheSameSchedule(_ trace: CorpusTrace) throws {
        builtinCorpus.replayOnFixed(trace)
    }

    /// One verdict: every trace on every variant of its scenario gets the same verdict, exit code
    /// and facts from `simrun replay --json` as from SimTesting (both present `TraceReplay`'s report).
    @Test(arguments: builtinCorpus.traces)
    func theCLIAndSimTestingGiveTheSameVerdictOnEveryVariant(_ trace: CorpusTrace) throws {
        let scenario = try #require(builtinCorpus.scenario(of: trace))
        for variant in scenario.variants.map(\.name) {
            let report = try builtinCorpus.verdict(of: trace, variant: variant)
            // Traces recorded by tools/regenerate-traces.sh name the build `corpus`: this build, here.
            let cli = try SimrunProcess.run(["replay", trace.path, "--variant", variant, "--json", "--build-label", "corpus"])
            let document = try #require(
                try? JSONValue(parsing: cli.stdout.split(separator: "\n").last.map(String.init) ?? ""),
                "\(trace.name) on \(variant): \(cli.stdout)\(cli.stderr)")
            #expect(document["verdict"]?.stringValue == report.verdict.name, "\(trace.name) on \(variant)")
            #expect(document["exitCode"]?.intValue == Int(cli.status), "\(trace.name) on \(variant)")
            #expect(document["digest"]?.stringValue == report.digest.description, "\(trace.name) on \(variant)")
            #expect(document["followed"]?.stringValue == report.tally.line, "\(trace.name) on \(variant)")
            #expect(
                document["outcome"]?["message"]?.stringValue == report.outcome.message, "\(trace.name) on \(variant)")
            let expected: Int32 =
                switch report.verdict {
                case .identical, .pass: 0
                case .diverged, .fail, .crashed: 1
                case .inconclusive: 2
                case .damaged: 65
                }
            #expect(cli.status == expected, "\(trace.name) on \(variant): \(cli.stdout)\(cli.stderr)")
            if variant == trace.recordedVariant { #expect(report.verdict == .identical, "\(trace.name)") }
        }
    }
}

extension TraceRegressionTests {
    /// `replay --bisect` decides like `replay` (issue #43): the committed traces name no build, so
    /// under `--bisect` each is judged as another build's, on every variant, and the answer must be
    /// the one `replay` gives: the same decisions followed, and the code `git bisect run` needs for
    /// that verdict (the recorded failure still there: 1, passes: 0, inconclusive: 125).
    @Test(arguments: builtinCorpus.traces)
    func replayBisectGivesTheSameAnswerAsReplayOnEveryVariant(_ trace: CorpusTrace) throws {
        let scenario = try #require(builtinCorpus.scenario(of: trace))
        for variant in scenario.variants.map(\.name) {
            let report = try builtinCorpus.verdict(of: trace, variant: variant)
            let expected: Int32? =
                switch report.verdict {
                case .identical: report.outcome.isFailure ? 1 : 0
                case .pass: 0
                case .fail, .crashed: 1
                case .inconclusive: 125
                case .diverged, .damaged: nil
                }
            let code = try #require(expected, "\(trace.name) on \(variant) does not replay: \(report.verdict)")
            let bisect = try SimrunProcess.run(["replay", "--bisect", trace.path, "--variant", variant, "--json"])
            let document = try #require(
                try? JSONValue(parsing: bisect.stdout.split(separator: "\n").last.map(String.init) ?? ""),
                "\(trace.name) on \(variant): \(bisect.stdout)\(bisect.stderr)")
            #expect(bisect.status == code, "\(trace.name) on \(variant): \(report.verdict.name) but \(bisect.stdout)")
            #expect(document["otherBuild"]?.boolValue == true, "\(trace.name) on \(variant)")
            #expect(document["followed"]?.stringValue == report.tally.line, "\(trace.name) on \(variant)")
        }
    }
}

extension CorpusTrace {
    /// The variant the trace was recorded on.
    var recordedVariant: String { (try? TraceInput(path: path).header.variant) ?? "" }
}

/// The file's text, or nil when it cannot be read.
private func readText(_ path: String) -> String? {
    try? String(contentsOfFile: path, encoding: .utf8)
}
