import SimCapture
import SimCore
import SimEngine
import SimTrace
import Testing

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
    /// A binary built on `SimRun.main` over the same scenarios (your package's simrun executable),
    /// or nil. With one, every replay runs in its child process, as `simrun replay` does: a model
    /// that traps is a crash finding, never the end of the test runner, and `@MainActor` scenarios
    /// replay too. Without one, replays run in this process, and traces that could trap it (one
    /// that records a crash, or is cut short before its verdict) fail with a message instead.
    public let executable: String?

    /// The corpus in `directory` (absolute, or relative to the current directory).
    public init(directory: String, scenarios: [Scenario], executable: String? = nil) {
        self.directory = directory
        self.scenarios = scenarios
        self.executable = executable
    }

    /// The corpus in `relativePath` of the package that holds the calling test file: the nearest
    /// directory above `filePath` with a `Package.swift` (so `swift test` finds it from any directory).
    public init(
        _ relativePath: String = "Traces", scenarios: [Scenario], executable: String? = nil,
        filePath: String = #filePath
    ) {
        var directory = String(
            filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        while !directory.isEmpty && !fileExists(directory + "/Package.swift") {
            directory = String(
                directory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        }
        self.init(
            directory: (directory.isEmpty ? "." : directory) + "/" + relativePath, scenarios: scenarios,
            executable: executable)
    }

    /// Every `.simtrace` in the directory, by name; a single missing marker when there is none.
    public var traces: [CorpusTrace] {
        let names = Self.list(directory).filter { $0.hasSuffix(".simtrace") }.sorted()
        if names.isEmpty { return [CorpusTrace(name: "", directory: directory)] }
        return names.map { CorpusTrace(name: $0, directory: directory) }
    }

    /// The engine's verdict on `trace` replayed on `variant` (nil: its recorded variant): the same
    /// `ReplayReport` (SimEngine) `simrun replay` presents. Throws for input that cannot be replayed (an
    /// unreadable file, an unknown scenario or variant), and, without ``executable``, for a trace
    /// that could trap this process.
    public func verdict(of trace: CorpusTrace, variant: String? = nil) throws(SimEngineError) -> ReplayReport {
        if trace.isMissing {
            throw SimEngineError(.missingInput, "\(directory) holds no .simtrace to replay")
        }
        let request = ReplayRequest(trace: trace.path, variant: variant)
        let catalog = ScenarioCatalog(scenarios)
        let isolation: Isolation = executable.map { .processes(ProcessLauncher(executable: $0)) } ?? .inProcess
        if isolation.launcher == nil, case .unknown = TraceEnding.read(path: trace.path) {
            // Cut short where it may have trapped: the test runner must not try it (the engine's one
            // "needs a child" error, as for a trace that records a crash).
            _ = try isolation.launcher(for: "\(trace.path) is cut short (no footer), where its run may trap: replaying it")
        }
        if isolation.launcher == nil, let header = try? TraceReader(path: trace.path).header,
            let scenario = scenarios.first(where: { $0.name == header.scenario }),
            let reason = Self.cannotRunHere(scenario, variant: request.variant ?? header.variant)
        {
            throw SimEngineError(.usage, "\(trace.path): \(reason); replay it with `simrun replay` (a child process)")
        }
        return try TraceReplay.decide(request, catalog: catalog, isolation: isolation)
    }

    /// Replays `trace` on its recorded variant and records an issue unless the engine's verdict is
    /// `identical`: every recorded event replayed, to the recorded verdict and digest. A divergence,
    /// a cut-short or damaged file, an unknown scenario and a trace this process cannot replay (see
    /// ``executable``) all fail.
    @discardableResult
    public func replay(_ trace: CorpusTrace, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        check(trace, variant: nil, expecting: "identical", sourceLocation: sourceLocation)
    }

    /// Runs `trace`'s recorded schedule on `variant` (the scenario's fix) and records an issue unless
    /// the engine's verdict is `pass`: the bug the trace records stays fixed. An inconclusive replay
    /// (a non-fifo decision that could not be followed) fails, unless the fix removes the race
    /// itself: then a `pct` campaign on the variant decides (`TraceReplay`'s rule, as in
    /// `simrun replay --variant`).
    @discardableResult
    public func replayOnFixed(
        _ trace: CorpusTrace, variant: String = "fixed", sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        check(trace, variant: variant, expecting: "pass", sourceLocation: sourceLocation)
    }

    private func check(_ trace: CorpusTrace, variant: String?, expecting: String, sourceLocation: SourceLocation)
        -> Bool
    {
        do {
            let report = try verdict(of: trace, variant: variant)
            guard report.verdict.name != expecting else { return true }
            Issue.record(
                Comment(rawValue: "\(trace.path)" + (variant.map { " on \($0)" } ?? "") + ": " + Self.describe(report)),
                sourceLocation: sourceLocation)
            return false
        } catch {
            Issue.record(
                Comment(rawValue: trace.isMissing ? error.message : "\(trace.path): \(error.message)"),
                sourceLocation: sourceLocation)
            return false
        }
    }

    /// A verdict in words, for an issue.
    static func describe(_ report: ReplayReport) -> String {
        switch report.verdict {
        case .identical: return "identical"
        case .diverged(_, let lines): return "does not replay as recorded:\n" + lines.joined(separator: "\n")
        case .pass(let evidence): return "pass" + (evidence.map { " (\($0.line(variant: report.variant)))" } ?? "")
        case .fail(let outcome, let evidence?):
            return "\(report.variant) removes the recorded race, but fails elsewhere (\(evidence.strategy), seeds "
                + "\(evidence.seeds.lowerBound)..<\(evidence.seeds.upperBound): \(evidence.failures) failures, the first at "
                + "seed \(evidence.firstFailingSeed.map(String.init) ?? "?"): \(outcome)); "
                + evidence.unfollowed.map { "decision \($0.number): \($0.why)" }.joined(separator: "; ")
        case .fail(let outcome, nil): return "\(outcome)"
        case .crashed(let message, let at): return "crashed at event \(at): \(message)"
        case .inconclusive(let reason):
            return "inconclusive — \(reason.text); \(report.tally.line)"
                + (report.notes.isEmpty ? "" : "; " + report.notes.joined(separator: "; "))
        case .damaged(let message, let compared): return "damaged: \(message) (\(compared) events compared before it)"
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

    /// Why `scenario` cannot run in this test process, or nil when it can: `@MainActor` code and sleeps
    /// inside `Task {}` are captured only by the executor factory, which simrun's load-time constructor
    /// installs when it can be first (`ExecutorFactoryGate`); otherwise only an executable built on
    /// `SimRun.main` has it.
    static func cannotRunHere(_ scenario: Scenario, variant: String) -> String? {
        guard scenario.concurrency(of: variant) == .executorFactory, !ExecutorCapture.ensureRoute().capturesMainActor
        else {
            return nil
        }
        let which = scenario.concurrency == .executorFactory ? scenario.name : "\(scenario.name) --variant \(variant)"
        return "\(which) needs the executor-factory route (@MainActor code or sleeps in Task {}), which "
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
    /// True when the trace's run ended in a trap (`crashed`): without an `executable`,
    /// ``TraceCorpus/replay(_:sourceLocation:)`` would trap the test process, so it fails instead.
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
