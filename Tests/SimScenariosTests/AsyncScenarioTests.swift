import Foundation
import SimCapture
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// Plain Swift concurrency (`@MainActor` + `Task {}`) under the engine: each bug found, each fix
/// clean, runs the same in two more processes, and a run in this test process (the load-time
/// factory) the same run as in a child of `simrun` (the executable's own route). What `simrun`'s
/// routes capture is checked through the binary in SimRunKitTests' `ExecutorRouteTests`.
@Suite struct AsyncScenarioTests {
    static let scenarios = ["actor-reentrancy-cache", "search-debounce-task", "double-tap-submit"]

    @Test(arguments: scenarios)
    func buggyIsFoundFixedIsCleanAndRunsAreDeterministic(_ name: String) throws {
        let directory = try makeTemporaryDirectory("async")
        defer { try? FileManager.default.removeItem(at: directory) }
        let buggy = try ScenarioCampaigns.fuzz(try ScenarioCampaigns.plan(name), seeds: 0..<1000, into: directory)
        let finding = try #require(buggy.findings.first, "\(name) buggy not found")
        #expect(finding.kind == .failure && finding.verdict.isFailure, "\(finding.verdict)")
        let fixed = try ScenarioCampaigns.fuzz(
            try ScenarioCampaigns.plan(name, variant: "fixed"), seeds: 0..<2000, into: directory)
        #expect(fixed.findings.isEmpty, "\(name) fixed failed: \(fixed.findings.map(\.verdict))")
        for variant in ["buggy", "fixed"] {
            let check = try ScenarioCampaigns.determinism(try ScenarioCampaigns.plan(name, variant: variant), seeds: 11..<12)
            #expect(check.checked == 1 && check.differences.isEmpty && check.incomplete == nil, "\(name)/\(variant)")
        }
    }

    /// The in-test route and the executable's route give the same run: `@MainActor` scenarios run in
    /// this test process have the digest a child of `simrun` records.
    @Test(arguments: scenarios)
    func aRunInTheTestProcessIsTheRunOfTheExecutable(_ name: String) throws {
        let directory = try makeTemporaryDirectory("async-route")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try ScenarioCampaigns.plan(name, strategy: StrategySpec(kind: .random))
        let launcher = try #require(ScenarioCampaigns.children.launcher)
        for seed: UInt64 in [3, 11] {
            let here = plan.run(seed: seed, strategy: plan.makeStrategy())
            let there = try IsolatedRecording(plan: try plan.descriptor(), launcher: launcher)
                .record(seed: seed, to: directory.appendingPathComponent("\(seed).simtrace").path)
            #expect(there.digest == here.digest, "\(name) seed \(seed): \(here.digest) vs \(there.digest)")
            #expect(there.verdict == here.verdict, "\(name) seed \(seed)")
        }
    }

    /// GCD runs under the scheduler (Linux); a `DispatchSource`, which it does not simulate, is an escape.
    @Test func aDispatchSourceIsReportedAsAnEscape() throws {
        let plan = try ScenarioCampaigns.plan("capture-probe", variant: "dispatch-source-data")
        let run = plan.run(seed: 3, strategy: plan.makeStrategy())
        if DispatchCapturing.isActive {
            #expect(run.verdict.oracle == "stays-in-simulation", "\(run.verdict)")
            #expect(
                run.verdict.message.hasPrefix("work escaped the simulation: a DispatchSource other than a timer"),
                "\(run.verdict)")
        } else {
            #expect(run.verdict.oracle == "captured", "\(run.verdict)")
        }
    }
}
