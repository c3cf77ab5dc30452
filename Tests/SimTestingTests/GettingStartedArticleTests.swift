import Foundation
import SimCore
import SimTestSupport
import SimTesting
import Testing

// article:begin
enum LostUpdate {
    static let scenario = Scenario(
        name: "lost-update",
        summary: "two increments, one of them lost",
        variants: [.init("buggy", "read and write are separate jobs"), .init("fixed", "one job")]
    ) { simulation, variant in
        let counter = Counter()
        for worker in ["a", "b"] {
            let lane = simulation.lane("worker.\(worker)")
            if variant == "fixed" {
                simulation.post(on: "worker.\(worker)", "increment") { counter.value += 1 }
            } else {
                simulation.post(on: "worker.\(worker)", "read") {
                    let seen = counter.value
                    simulation.post(lane, simulation.symbol("write")) { counter.value = seen + 1 }
                }
            }
        }
        simulation.atEnd("no-lost-update") { counter.value == 2 ? nil : "counter is \(counter.value)" }
    }
}

final class Counter { var value = 0 }
// article:end

/// The getting-started article's scenario (SimCore.docc/GettingStarted.md) compiles as written, and
/// its exploration steps work: the buggy variant fails with a saved trace, the fixed one passes.
@Suite struct GettingStartedArticleTests {
    @Test func theArticlesScenarioIsThisFilesAndExploresAsTheArticleSays() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/SimCore/SimCore.docc/GettingStarted.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try #require(source.range(of: "// article:begin\n"))
        let end = try #require(source.range(of: "// article:end"))
        #expect(article.contains(String(source[begin.upperBound..<end.lowerBound])))

        let directory = try makeTemporaryDirectory("article").path
        withKnownIssue {
            explore(
                LostUpdate.scenario, variant: "buggy", strategy: "pct", seeds: 0..<1_000, failureDirectory: directory)
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("lost-update-buggy-no-lost-update.simtrace")
        }
        let corpus = TraceCorpus(directory: directory, scenarios: [LostUpdate.scenario])
        #expect(corpus.replay(corpus.traces[0]))
        #expect(corpus.replayOnFixed(corpus.traces[0]))
        #expect(explore(LostUpdate.scenario, variant: "fixed", seeds: 0..<200).failure == nil)
    }
}
