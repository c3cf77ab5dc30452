import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// A campaign re-checks each saved trace by replaying it: in a new process when its runs are in
/// children (a process-dependent run is caught there), here otherwise; the check says which, since
/// "differs in a new process" and "differs in this process" are different bugs in the user's code.
@Suite struct CampaignReplayCheckTests {
    /// `unruly-counter/wall-clock` records the process's CPU time in an event: no two runs alike.
    static let plan = RunPlan.probed(
        scenario: UnrulyCounter.scenario, variant: "wall-clock", strategy: .campaignDefault)

    static func failure(isolation: Isolation) throws -> SavedFinding {
        let directory = try makeTemporaryDirectory("replay-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: 0..<20, jobs: 1),
            options: .init(directory: directory.path, shrink: false, isolation: isolation)
        ).run()
        return try #require(result.findings.first { $0.kind == .failure }, "\(result.findings.map(\.kind))")
    }

    @Test func aCheckInAChildSaysItRanInANewProcess() throws {
        let finding = try Self.failure(
            isolation: .processes(ProcessLauncher(executable: SimrunProcess.executable.path)))
        guard case .differed(let lines, let inNewProcess)? = finding.replay else {
            Issue.record("the CPU time differs on every run: \(String(describing: finding.replay))")
            return
        }
        #expect(inNewProcess && !lines.isEmpty)
    }

    @Test func aCheckHereSaysItRanInThisProcess() throws {
        let finding = try Self.failure(isolation: .inProcess)
        guard case .differed(let lines, let inNewProcess)? = finding.replay else {
            Issue.record("the CPU time differs on every run: \(String(describing: finding.replay))")
            return
        }
        #expect(!inNewProcess && !lines.isEmpty)
    }
}
