import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// `Explainer` of the committed Blueprint crash, every re-fuzzed run in a child of its own: the
/// crash is certain from the keyboard's frame job on.
@Suite struct ExplainerCrashTests {
    @Test func aCrashIsExplainedFromItsDecisiveJob() throws {
        let input = try TraceInput(path: CrashFixtures.crashTrace)
        let footer = try #require(input.footer)
        let explanation = try Explainer(
            plan: try input.plan(in: CrashFixtures.catalog), input: input, target: FailureSignature(footer.verdict),
            runs: 4, jobs: 1
        ).explain(isolation: SimrunChildren.isolation)
        #expect(explanation.runs == 4)
        #expect(explanation.reproduces)
        let decisive = try #require(explanation.decisive, "certain from some decision on")
        #expect(explanation.rows[decisive].failures == 4, "100% from the decisive row")
        #expect(explanation.rows.contains { $0.took == "keyboard/keyboard.frame#1" }, "\(explanation.rows.map(\.took))")
    }
}
