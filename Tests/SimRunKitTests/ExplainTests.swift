import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

@Suite struct ExplainTests {
    private func explanation(_ trace: String, runs: Int, jobs: Int) throws -> Explainer.Explanation {
        let input = try TraceInput(path: trace)
        let plan = try input.plan(in: ScenarioCatalog(BuiltinScenarios.all))
        let verdict = try #require(input.footer?.verdict)
        return Explainer(plan: plan, input: input, target: FailureSignature(verdict), runs: runs, jobs: jobs).explain()
    }

    @Test func lostInputIsCertainOnceTheBlurIsOvertakenAfterTheTap() throws {
        let directory = try makeTemporaryDirectory("explain")
        let trace = try Understanding.failingTrace("lost-input-navigation", in: directory)
        let explained = try explanation(trace, runs: 60, jobs: 2)
        let index = try #require(explained.decisive)
        let decisive = try #require(explained.rows[index].offer)
        // The blur is what the decisive pick jumps ahead of, and the tap has already overtaken it.
        #expect(decisive.overtaken?.label == "input.blur")
        let upToIt = explained.rows[...index].compactMap(\.offer)
        #expect(upToIt.contains { $0.taken?.label == "action.tap" && $0.overtaken?.label == "input.blur" })
        #expect(explained.rows[index...].allSatisfy { $0.failures == explained.runs })
        let before = index == 0 ? explained.baseline : explained.rows[index - 1].failures
        #expect(before < explained.runs)
    }

    @Test func ratesDoNotDependOnTheNumberOfJobs() throws {
        let directory = try makeTemporaryDirectory("explain")
        let trace = try Understanding.failingTrace("counter-race", in: directory)
        let one = try explanation(trace, runs: 40, jobs: 1)
        let two = try explanation(trace, runs: 40, jobs: 2)
        #expect([one.baseline] + one.rows.map(\.failures) == [two.baseline] + two.rows.map(\.failures))
        #expect(one.decisive == two.decisive)
    }

    @Test func theCommandPrintsTheTableOneSentenceAndTheTimeline() throws {
        let directory = try makeTemporaryDirectory("explain")
        let trace = try Understanding.failingTrace("lost-input-navigation", in: directory)
        let run = Understanding.simrun(["explain", trace, "--runs", "40"])
        #expect(run.status == 0)
        let lines = run.out.split(separator: "\n").map(String.init)
        let sentences = lines.filter { $0.hasPrefix("The bug became certain at decision") }
        #expect(sentences.count == 1)
        #expect(sentences.first?.contains("input.blur#1 on lane user.keyboard") == true)
        #expect(lines.contains { $0.contains("certain from here") && $0.contains("user.keyboard/input.blur#1") })
        #expect(lines.contains { $0.hasPrefix("  → ") && $0.contains("▶") })
        let again = Understanding.simrun(["explain", trace, "--runs", "40", "--jobs", "1"])
        #expect(again.out == run.out)
    }

    @Test func aPassingTraceHasNothingToExplain() throws {
        let directory = try makeTemporaryDirectory("explain")
        let path = directory.appendingPathComponent("pass.simtrace").path
        #expect(Understanding.simrun(["run", "counter-race", "--variant", "fixed", "--out", path]).status == 0)
        #expect(Understanding.simrun(["explain", path]).status == 64)
    }
}
