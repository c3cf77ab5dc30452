import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// `Explainer`: the decision after which a trace's failure is certain, from re-fuzzed runs that keep
/// each prefix of its schedule (ExplainCommandTests keeps the table and sentence `explain` prints).
@Suite struct ExplainerTests {
    /// The failing trace a campaign of `scenario` (the campaign strategy, shrunk) saves into `directory`.
    static func failingTrace(_ scenario: String, in directory: URL, seeds: Range<UInt64> = 0..<500) throws -> String {
        let plan = RunPlan.probed(
            scenario: try ScenarioCatalog(BuiltinScenarios.all).scenario(named: scenario), variant: "buggy",
            strategy: .campaignDefault)
        let result = try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: seeds, jobs: 1),
            options: .init(directory: directory.appendingPathComponent("found-\(scenario)").path, shrink: true)
        ).run()
        let finding = try #require(result.findings.first, "a campaign found no failure in \(scenario)")
        return try #require(finding.path)
    }

    private func explanation(_ trace: String, runs: Int, jobs: Int) throws -> Explainer.Explanation {
        let input = try TraceInput(path: trace)
        let plan = try input.plan(in: ScenarioCatalog(BuiltinScenarios.all))
        let verdict = try #require(input.footer?.verdict)
        return Explainer(plan: plan, input: input, target: FailureSignature(verdict), runs: runs, jobs: jobs).explain()
    }

    @Test func lostInputIsCertainOnceTheBlurIsOvertakenAfterTheTap() throws {
        let directory = try makeTemporaryDirectory("explain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.failingTrace("lost-input-navigation", in: directory)
        let explained = try explanation(trace, runs: 60, jobs: 2)
        #expect(explained.reproduces)
        let index = try #require(explained.decisive)
        let decisive = try #require(explained.rows[index].offer)
        // The blur (on the keyboard's lane) is what the decisive pick jumps ahead of, and the tap has
        // already overtaken it.
        #expect(decisive.overtaken?.label == "input.blur" && decisive.overtaken?.lane == "user.keyboard")
        #expect(decisive.overtaken?.description == "user.keyboard/input.blur#1")
        let upToIt = explained.rows[...index].compactMap(\.offer)
        #expect(upToIt.contains { $0.taken?.label == "action.tap" && $0.overtaken?.label == "input.blur" })
        #expect(explained.rows[index...].allSatisfy { $0.failures == explained.runs })
        let before = index == 0 ? explained.baseline : explained.rows[index - 1].failures
        #expect(before < explained.runs)
    }

    @Test func ratesDoNotDependOnTheNumberOfJobs() throws {
        let directory = try makeTemporaryDirectory("explain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.failingTrace("counter-race", in: directory)
        let one = try explanation(trace, runs: 40, jobs: 1)
        let two = try explanation(trace, runs: 40, jobs: 2)
        #expect([one.baseline] + one.rows.map(\.failures) == [two.baseline] + two.rows.map(\.failures))
        #expect(one.decisive == two.decisive)
    }

    /// A data decision decides the bug: it is named by its site, as `show` names it.
    private static let choosing = Scenario(name: "slow-network", summary: "", variants: [.init("buggy", "")]) {
        sim, _ in
        sim.post(on: "main", "fetch") {
            let delay = sim.choose(3, "net.delay")
            sim.always("fast enough") { delay == 2 ? "the response took too long" : nil }
        }
    }

    @Test func aDecisiveDataDecisionIsNamedBySite() throws {
        let directory = try makeTemporaryDirectory("explain-site")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("slow.simtrace").path
        let plan = RunPlan.probed(scenario: Self.choosing, variant: "buggy", strategy: StrategySpec(kind: .random))
        let recorded = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [2]), strategyName: "random", to: path)
        #expect(recorded.verdict.isFailure)
        let input = try TraceInput(path: path)
        let explained = Explainer(
            plan: try input.plan(in: ScenarioCatalog([Self.choosing])), input: input,
            target: FailureSignature(recorded.verdict), runs: 20, jobs: 1
        ).explain()
        #expect(explained.reproduces)
        #expect(explained.decisive == 0)
        let row = try #require(explained.rows.first)
        #expect(row.number == 1 && row.site == "net.delay" && row.offer?.taken == nil)
        #expect(row.took == "choose net.delay = 2 of 3")
    }
}
