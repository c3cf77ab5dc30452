import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// A failure a worker process saw that the campaign's own re-run does not reproduce is
/// nondeterminism, saved as evidence; when the re-run passes, there is no failing trace to save, and
/// the campaign must not save the passing one as the failure.
@Suite struct NondeterministicFindingTests {
    @Test func aFailureThatPassesWhenRunAgainIsNondeterminismOnly() throws {
        let directory = try makeTemporaryDirectory("nondeterministic-finding")
        defer { try? FileManager.default.removeItem(at: directory) }
        // `leaked-static`: a process's first run passes, later ones fail (state left in a static).
        let plan = RunPlan.probed(
            scenario: UnrulyCounter.scenario, variant: "leaked-static", strategy: .campaignDefault)
        let result = try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: 0..<10, jobs: 2),
            options: .init(
                directory: directory.path, shrink: false,
                isolation: .processes(ProcessLauncher(executable: SimrunProcess.executable.path)))
        ).run()
        let nondeterministic = try #require(
            result.findings.first { $0.kind == .nondeterministic }, "\(result.findings.map(\.kind))")
        let evidence = try #require(nondeterministic.nondeterminism?.evidence)
        #expect(evidence.traces.allSatisfy { !$0.outcome.verdict.isFailure }, "the re-runs here pass")
        #expect(!result.findings.contains { $0.kind == .failure }, "\(result.findings.map { ($0.kind, $0.path) })")
        let saved = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(saved.allSatisfy { $0.contains("-nondeterministic-") }, "\(saved)")
    }
}
