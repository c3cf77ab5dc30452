import Foundation
import SimCapture
import SimCore
import SimEngine
import SimTestSupport
import SimTesting
import Testing

/// Shrink to what is decisive (issue #40): actor reentrancy driven from two `@MainActor` tasks. Two
/// taps each start `Task { @MainActor in … await cache.profile(…) }`; the cache misses for both,
/// both fetch, and the older answer (100 ms) and the newer one (50 ms, asked 50 ms later) are due
/// at the same instant: when the newer is stored first, the older overwrites it. By hand the
/// failure needs one non-fifo decision (the newer fetch's wake-up first); the shrunk trace keeps
/// exactly that, and the decision `explain` names as certain on the found trace is in it.
@Suite struct MainActorReentrancyShrinkTests {
    actor Backend {
        private(set) var version = 0
        func fetch(latency: Int) async -> Int {
            version += 1
            let issued = version
            try? await Task.sleep(for: .milliseconds(latency))
            return issued
        }
    }

    actor ProfileCache {
        let backend = Backend()
        private(set) var cached: Int?
        func profile(latency: Int) async -> Int {
            if let cached { return cached }
            let value = await backend.fetch(latency: latency)
            cached = value
            return value
        }
    }

    @MainActor final class ProfileScreen {
        let cache = ProfileCache()
        var shown: Int?
        func tap(latency: Int) {
            Task { @MainActor in shown = await cache.profile(latency: latency) }
        }
    }

    static let scenario = Scenario.async(
        name: "main-actor-reentrancy", summary: "two @MainActor taps reenter an actor cache",
        variants: [.init("buggy", "check, await the fetch, store")]
    ) { simulation, _ in
        let screen = ProfileScreen()
        await screen.tap(latency: 100)
        try? await Task.sleep(for: .milliseconds(50))
        await screen.tap(latency: 50)
        await simulation.settle()
        let cached = await screen.cache.cached
        let newest = await screen.cache.backend.version
        simulation.atEnd("cache-holds-newest") {
            cached == newest ? nil : "the cache holds version \(cached ?? 0) but version \(newest) was fetched later"
        }
    }

    @Test func theShrunkTraceKeepsTheOneDecisiveDecision() throws {
        let plan = RunPlan.probed(scenario: Self.scenario, variant: "buggy", strategy: StrategySpec(kind: .pct))
        let report = Fuzzer(plan: plan, configuration: .init(seeds: 0..<200, jobs: 1)).run()
        let finding = try #require(report.findings.first)
        #expect(finding.tape.decisions.filter(\.isDeviation).count > 1, "found with more than the minimum")
        let outcome = try #require(
            Shrinker(plan: plan, seed: finding.seed, target: finding.signature).shrink(finding.tape))
        #expect(outcome.result.deviations == 1, "the hand minimum: one non-fifo decision")
        let directory = try makeTemporaryDirectory("main-actor-reentrancy")
        defer { try? FileManager.default.removeItem(at: directory) }
        let found = directory.appendingPathComponent("found.simtrace").path
        _ = try Recorder.record(plan: plan, seed: finding.seed, tape: finding.tape, strategyName: "pct", to: found)
        let explanation = Explainer(
            plan: plan, input: try TraceInput(path: found), target: finding.signature, runs: 30, jobs: 1
        ).explain()
        let certain = try #require(explanation.decisive.map { explanation.rows[$0] }, "explain names one decision")
        let key = try #require(certain.offer?.taken)
        let shrunk = outcome.tape
        #expect(
            shrunk.decisions.contains {
                $0.kind == .pick && shrunk.text($0.lane) == key.lane && shrunk.text($0.label) == key.label
                    && $0.ordinal == key.ordinal
            }, "explain's certain decision \(key) is in the shrunk trace")
    }
}
