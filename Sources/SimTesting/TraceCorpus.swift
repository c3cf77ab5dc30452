import SimCore
import SimEngine
import SimTrace
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory of committed `.simtrace` files and the scenarios they were recorded from, replayed as
/// regression tests:
///
/// ```swift
/// let corpus = TraceCorpus(scenarios: [CheckoutPromoCode.scenario])
///
/// @Test(arguments: corpus.traces) func replays(_ trace: CorpusTrace) { corpus.replay(trace) }
/// @Test(arguments: corpus.traces) func fixedPasses(_ trace: CorpusTrace) { corpus.replayOnFixed(trace) }
/// ```
///
/// An empty or missing directory still yields one argument, ``CorpusTrace/isMissing``, whose replay
/// fails: Swift Testing would otherwise report a parameterised test without arguments as passed.
public struct TraceCorpus: Sendable {
    /// The directory the traces are read from.
    public let directory: String
    /// The scenarios the traces may name.
    public let scenarios: [Scenario]

    /// The corpus in `directory` (absolute, or relative to the current directory).
    public init(directory: String, scenarios: [Scenario]) {
        self.directory = directory
        self.scenarios = scenarios
    }

    /// The corpus in `relativePath` of the package that holds the calling test file: the nearest
    /// directory above `filePath` with a `Package.swift` (so `swift test` finds it from any directory).
    public init(_ relativePath: String = "Traces", scenarios: [Scenario], filePath: String = #filePath) {
        var directory = String(
            filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        while !directory.isEmpty && !fileExists(directory + "/Package.swift") {
            directory = String(
                directory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        }
        self.init(directory: (directory.isEmpty ? "." : directory) + "/" + relativePath, scenarios: scenarios)
    }

    /// Every `.simtrace` in the directory, by name; a single missing marker when there is none.
    public var traces: [CorpusTrace] {
        let names = Self.list(directory).filter { $0.hasSuffix(".simtrace") }.sorted()
        if names.isEmpty { return [CorpusTrace(name: "", directory: directory)] }
        return names.map { CorpusTrace(name: $0, directory: directory) }
    }

    /// Replays `trace` on its recorded variant and records an issue unless it replays identically:
    /// the same events, verdict and digest, with every recorded decision followed. An unreadable or
    /// cut-short file, an unknown scenario, a divergence and an inconclusive replay (a decision that
    /// could not be followed) all fail, and so does a trace that records a crash (``CorpusTrace/recordsCrash``:
    /// in this process its replay would trap the test runner).
    @discardableResult
    public func replay(_ trace: CorpusTrace, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let (input, footer) = open(trace, sourceLocation: sourceLocation) else { return false }
        do {
            let plan = try input.plan(in: ScenarioCatalog(scenarios))
            let outcome = try TraceReplayer(input: input, plan: plan).replayComparing()
            var problems: [String] = []
            if let divergence = outcome.divergence { problems += divergence }
            if !outcome.notes.isEmpty { problems.append("inconclusive: " + outcome.notes.joined(separator: "; ")) }
            if outcome.result.verdict != footer.verdict {
                problems.append("verdict: recorded \(footer.verdict), replayed \(outcome.result.verdict)")
            }
            if outcome.result.digest != footer.digest {
                problems.append("digest: recorded \(footer.digest), replayed \(outcome.result.digest)")
            }
            guard problems.isEmpty else {
                Issue.record(
                    Comment(
                        rawValue: "\(trace.path) does not replay as recorded:\n" + problems.joined(separator: "\n")),
                    sourceLocation: sourceLocation)
                return false
            }
            return true
        } catch {
            Issue.record("\(trace.path): \(error.message)", sourceLocation: sourceLocation)
            return false
        }
    }

    /// Runs `trace`'s recorded schedule on `variant` (the scenario's fix) and records an issue unless
    /// it passes: the bug the trace records stays fixed. Recorded decisions the fix's run could not
    /// follow are listed in a warning.
    @discardableResult
    public func replayOnFixed(
        _ trace: CorpusTrace, variant: String = "fixed", sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        guard let (input, _) = open(trace, allowCrash: true, sourceLocation: sourceLocation) else { return false }
        do {
            let plan = try input.plan(in: ScenarioCatalog(scenarios), variant: variant)
            let outcome = TraceReplayer(input: input, plan: plan).replayForVerdict()
            if outcome.result.verdict != .pass {
                Issue.record(
                    "\(trace.path) on \(variant): \(outcome.result.verdict)", sourceLocation: sourceLocation)
                return false
            }
            if let problem = outcome.scheduleProblem {
                Issue.record("\(trace.path) on \(variant): \(problem)", sourceLocation: sourceLocation)
                return false
            }
            if outcome.isConclusive { return true }
            // Inconclusive is a failure — a pass on a schedule whose races never happened tested
            // nothing — with one exception that is checked, not assumed: a fix that removes the race
            // itself (its job no longer exists, or the fixed code always runs the overtaken job first).
            // Then the replay cannot test the fix, and a pct campaign on the fixed variant must.
            let racesRemoved = outcome.unfollowed.allSatisfy { $0.reason == .ordered || $0.reason == .missing }
            guard racesRemoved else {
                let why = outcome.notes.joined(separator: "; ")
                Issue.record(
                    "\(trace.path) on \(variant): inconclusive — \(outcome.tally.line); \(why)",
                    sourceLocation: sourceLocation)
                return false
            }
            var campaign = plan
            campaign.strategy = StrategySpec(kind: .pct)
            let report = Fuzzer(plan: campaign, configuration: Fuzzer.Configuration(seeds: 0..<500, jobs: 1)).run()
            if report.failures > 0 {
                Issue.record(
                    "\(trace.path): \(variant) removes the recorded race, but fails elsewhere (pct, seeds 0..<500: \(report.failures) failures)",
                    sourceLocation: sourceLocation)
                return false
            }
            return true
        } catch {
            Issue.record("\(trace.path): \(error.message)", sourceLocation: sourceLocation)
            return false
        }
    }

    /// The scenario each readable trace was recorded from, by trace name (issues for unreadable ones).
    public func recordedScenarios(sourceLocation: SourceLocation = #_sourceLocation) -> [String: String] {
        var scenarios: [String: String] = [:]
        for trace in traces where !trace.isMissing {
            do {
                scenarios[trace.name] = try TraceReader(path: trace.path).header.scenario
            } catch {
                Issue.record("\(trace.path): \(error)", sourceLocation: sourceLocation)
            }
        }
        return scenarios
    }

    /// The scenario `trace` names, when it is one of this corpus's (nil for an unreadable trace).
    public func scenario(of trace: CorpusTrace) -> Scenario? {
        guard !trace.isMissing, let header = try? TraceReader(path: trace.path).header else { return nil }
        return scenarios.first { $0.name == header.scenario }
    }

    /// The trace's decisions and footer, or nil after recording why not.
    private func open(
        _ trace: CorpusTrace, allowCrash: Bool = false, sourceLocation: SourceLocation
    ) -> (TraceInput, TraceFooter)? {
        if trace.isMissing {
            Issue.record("\(directory) holds no .simtrace to replay", sourceLocation: sourceLocation)
            return nil
        }
        do {
            let input = try TraceInput(path: trace.path)
            guard let footer = input.footer else {
                Issue.record("\(trace.path) is cut short (no footer)", sourceLocation: sourceLocation)
                return nil
            }
            if case .crashed = footer.verdict, !allowCrash {
                let message =
                    "\(trace.path) records a crash (\(footer.verdict)): replayed in this process it would trap "
                    + "the test runner; replay it in a child process (`simrun replay`)"
                Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
                return nil
            }
            if let scenario = scenarios.first(where: { $0.name == input.header.scenario }),
                let reason = Self.cannotRunHere(scenario)
            {
                Issue.record(
                    Comment(rawValue: "\(trace.path): \(reason); replay it with `simrun replay` (a child process)"),
                    sourceLocation: sourceLocation)
                return nil
            }
            return (input, footer)
        } catch {
            Issue.record("\(trace.path): \(error.message)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Why `scenario` cannot run in this test process, or nil when it can: `@MainActor` code and sleeps
    /// inside `Task {}` are captured only by the executor factory, which simrun's load-time constructor
    /// installs when it can be first (`ExecutorFactoryGate`); otherwise only an executable built on
    /// `SimRun.main` has it.
    static func cannotRunHere(_ scenario: Scenario) -> String? {
        guard scenario.concurrency == .executorFactory, !ExecutorCapture.ensureRoute().capturesMainActor else {
            return nil
        }
        return "\(scenario.name) needs the executor-factory route (@MainActor code or sleeps in Task {}), which "
            + "this process does not have (\(ExecutorCapture.routeNote ?? ExecutorCapture.route.description))"
    }

    /// The names in a directory (empty when it cannot be read).
    private static func list(_ directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// One trace of a ``TraceCorpus``, as a test argument (shown by its file name).
public struct CorpusTrace: Sendable, Hashable, CustomTestStringConvertible {
    /// The file name, e.g. `counter-race-buggy-no-lost-update.simtrace`; empty for the missing marker.
    public let name: String
    /// The corpus directory.
    public let directory: String

    /// The file's path.
    public var path: String { directory + "/" + name }
    /// True when the trace's run ended in a trap (`crashed`): ``TraceCorpus/replay(_:sourceLocation:)``
    /// would trap the test process, so it fails instead; replay such a trace with `simrun replay`.
    public var recordsCrash: Bool {
        guard !isMissing, let footer = try? TraceInput(path: path).footer else { return false }
        if case .crashed = footer.verdict { return true }
        return false
    }
    /// True for the marker standing for an empty or missing corpus (its replay fails).
    public var isMissing: Bool { name.isEmpty }
    /// The name Swift Testing shows for this argument.
    public var testDescription: String { isMissing ? "(no traces in \(directory))" : name }
}
