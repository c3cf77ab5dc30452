import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// `explain` of a crash trace builds its table from the trace alone (the schedule traps, so it is
/// not re-run here): each row names what its decision took as the non-crash table does — the job for
/// a pick, the site for a data decision — and the rows agree with the trace's decisions.
@Suite struct ExplainCrashRowsTests {
    static let crashTrace = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Traces/blueprint-reentrant-update-crash-buggy-crashed.simtrace").path

    @Test func aCrashTablesRowsNameTheJobOfEachPick() throws {
        let input = try TraceInput(path: Self.crashTrace)
        let footer = try #require(input.footer)
        #expect(footer.verdict.isCrash)
        let plan = try input.plan(in: ScenarioCatalog(BuiltinScenarios.all))
        let explanation = try Explainer(
            plan: plan, input: input, target: FailureSignature(footer.verdict), runs: 2, jobs: 1
        ).explainCrash(launcher: ProcessLauncher(executable: SimrunProcess.executable.path))
        #expect(explanation.rows.count == input.tape.count)
        #expect(explanation.rows.contains { $0.decision.kind == .pick }, "the trace has picks")
        for row in explanation.rows {
            let decision = input.tape.decisions[row.number - 1]
            #expect(row.decision == decision, "row \(row.number)")
            if decision.kind == .pick {
                let job = try #require(row.job, "row \(row.number): a pick names its job")
                #expect(row.site == nil)
                #expect(job.label == input.tape.text(decision.label) && job.lane == input.tape.text(decision.lane))
                #expect(row.took == job.description)
            } else {
                #expect(row.job == nil && row.site == input.tape.text(decision.label), "row \(row.number)")
            }
        }
    }
}
