import Foundation
import SimCore
import SimTestSupport
import Testing

@testable import SimEngine

/// "Explored" in worker processes (issue #40): the board counts the schedules and what the runs did
/// not control, and each worker names a kind's first example once. Here every run of
/// `dispatch-source-data` escapes. The figures in threads: `ExploredTests`; as `fuzz` prints them:
/// SimRunKitTests' `FuzzFindingsCommandTests`.
@Suite struct ExploredInWorkersTests {
    @Test func workerProcessesReportTheEscapesTheirRunsSaw() throws {
        let directory = try makeTemporaryDirectory("explored-workers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try BuiltinCampaigns.plan("capture-probe", variant: "dispatch-source-data")
        let result = try BuiltinCampaigns.fuzz(plan, seeds: 0..<6, keepGoing: true, into: directory)
        #expect(result.foundSomething)
        let explored = result.report.explored
        #expect(explored.runs == 6)
        let escape = try #require(explored.uncontrolled.first, "\(explored.figure)")
        #expect(escape.kind == .escape && escape.runs == 6, "\(explored.uncontrolled)")
        #expect(escape.seed == 0)
        #expect(escape.example.detail.contains("DispatchSource"), "\(escape.example)")
    }
}
