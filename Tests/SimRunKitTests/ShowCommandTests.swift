import Foundation
import SimCapture
import SimTestSupport
import Testing

/// `simrun show` marks what matters in a trace and reads an actor's job as "task X calls actor A.method" (the method named by the
/// caller's resume functions, read from the runtime), and `export` and `explain` name it the same
/// way. Which task an actor's job runs: SimEngineTests' `ActorCallerTests`.
@Suite struct ShowCommandTests {
    /// The committed lost-input trace: its oracle failure highlighted, its departures from fifo marked.
    @Test func showMarksDeviationsAndTheOracleFailure() throws {
        let shown = try SimrunProcess.run(["show", CommittedTraces.lostInput])
        #expect(shown.status == 0, "\(shown.stderr)")
        let lines = shown.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("!! ") && $0.contains("typed-text-kept") }, "the failure is highlighted")
        #expect(lines.contains { $0.hasPrefix(" *") && $0.contains("decision") }, "a departure from fifo is marked")
        #expect(shown.stdout.contains("verdict: FAIL — typed-text-kept"))
    }

    @Test func showExportAndExplainSayWhichTaskCallsWhichActorMethod() throws {
        let directory = try makeTemporaryDirectory("actor-show")
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorded = try SimrunProcess.run(
            [
                "run", "actor-reentrancy-cache", "--variant", "buggy", "--seed", "1", "--strategy", "random", "--out",
                "cache.simtrace",
            ], in: directory)
        #expect(recorded.status == 1, "\(recorded.stdout)\(recorded.stderr)")
        let shown = try SimrunProcess.run(["show", "cache.simtrace", "--full-names"], in: directory)
        let (first, second) =
            TaskNames.creationSitesAreRead
            ? ("task>ActorReentrancyCache.scenario{1}{3}.1", "task>ActorReentrancyCache.scenario{1}{4}.1")
            : ("task.1", "task.2")
        let method = CodeSymbol.areReadable ? "ProfileCache.profile(_:)" : "ProfileCache"
        #expect(shown.stdout.contains("actor.call: \(first) calls actor \(method)"), "\(shown.stdout)")
        #expect(shown.stdout.contains("actor.call: \(second) calls actor \(method)"), "\(shown.stdout)")
        // The Perfetto export names the slice the same way.
        let exported = try SimrunProcess.run(
            ["export", "cache.simtrace", "--format", "perfetto", "--out", "cache.json"], in: directory)
        #expect(exported.status == 0, "\(exported.stderr)")
        let json = try String(contentsOf: directory.appendingPathComponent("cache.json"), encoding: .utf8)
        #expect(json.contains("actor.call: \(first) calls actor \(method)"), "\(json.prefix(2000))")
        // `explain`'s excerpt around the decisive decision reads the same way.
        let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Traces")
            .appendingPathComponent("actor-reentrancy-cache-buggy-cache-holds-newest-response.simtrace").path
        let explained = try SimrunProcess.run(["explain", trace, "--runs", "2"])
        #expect(explained.stdout.contains("calls actor ProfileCache"), "\(explained.stdout)")
    }
}
