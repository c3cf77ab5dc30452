import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// Two jobs on two lanes; the oracle `order` fails either way, with a message naming who went
/// first: two distinct failures of one oracle.
private let eitherFirst = Scenario(
    name: "either-first", summary: "fails with who ran first", variants: [.init("v", "")]
) { simulation, _ in
    let first = ValueBox<String?>(nil)
    simulation.post(on: "a", "a.run") { if first.value == nil { first.value = "a" } }
    simulation.post(on: "b", "b.run") { if first.value == nil { first.value = "b" } }
    simulation.atEnd("order") { "\(first.value ?? "none") ran first" }
}

/// `FindingCampaign` driven directly: every distinct failure saved under its own name, each
/// re-checked, none shrunk when shrinking is off.
@Suite struct FindingCampaignEngineTests {
    /// A random campaign of `either-first` over seeds 0..<40 that keeps going, saving into `directory`.
    static func campaign(shrink: Bool, into directory: URL) throws -> FindingCampaign.Result {
        let plan = RunPlan.probed(scenario: eitherFirst, variant: "v", strategy: StrategySpec(kind: .random))
        var configuration = Fuzzer.Configuration(seeds: 0..<40, jobs: 1)
        configuration.keepGoing = true
        return try FindingCampaign(
            plan: plan, configuration: configuration,
            options: .init(directory: directory.path, shrink: shrink, isolation: .inProcess)
        ).run()
    }

    @Test func distinctFailuresOfOneOracleAreSavedApartAndRechecked() throws {
        let directory = try makeTemporaryDirectory("finding-campaign-engine")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.campaign(shrink: false, into: directory)
        #expect(result.report.schedules == 40)
        let messages = Set(result.findings.map(\.foundVerdict.message))
        #expect(messages == ["a ran first", "b ran first"])
        let names = result.findings.compactMap { $0.path?.split(separator: "/").last.map(String.init) }
        #expect(names == ["either-first-v-order.simtrace", "either-first-v-order-2.simtrace"])
        for finding in result.findings {
            #expect(finding.kind == .failure && finding.shrink == nil && finding.problem == nil)
            #expect(finding.replay == .identical)
            #expect(finding.verdict == finding.foundVerdict)
            // The saved trace is the finding: its header names the seed, its footer the verdict.
            let input = try TraceInput(path: try #require(finding.path))
            #expect(input.header.seed == finding.seed)
            #expect(input.footer?.verdict == finding.foundVerdict)
        }
        // Run again into the same directory: the same findings take their own names again.
        let again = try Self.campaign(shrink: false, into: directory)
        #expect(again.findings.map(\.path) == result.findings.map(\.path))
    }

    /// Shrinking (on by default in `fuzz`) keeps the two findings apart: each is saved under its own
    /// name. (The shrinker keeps to the oracle, so a shrunk finding may carry the other message:
    /// ShrunkFindingVerdictTests.)
    @Test func distinctFailuresStayApartWhenShrunk() throws {
        let directory = try makeTemporaryDirectory("finding-campaign-shrunk")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.campaign(shrink: true, into: directory)
        #expect(Set(result.findings.map(\.foundVerdict.message)) == ["a ran first", "b ran first"])
        let saved = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".simtrace") }
        #expect(saved.count == 2, "\(saved)")
    }
}

/// What an observer heard, in order.
private final class HeardCampaign: FindingCampaignObserver, @unchecked Sendable {
    // @unchecked: `saved` and `schedulesFinished` come from the thread that runs the campaign;
    // `progress` is not recorded.
    var events: [String] = []
    func schedulesFinished(_ report: Fuzzer.Report) { events.append("finished \(report.schedules)") }
    func saved(_ finding: SavedFinding) { events.append("saved \(finding.seed)") }
}

/// The campaign path end to end in the engine, with no command line: a finding saved, shrunk toward
/// fifo, re-checked, and its saved trace given the same verdict by the engine's replay; and an
/// in-order strategy's campaign (one strategy object from run to run) going through the same call.
@Suite struct FindingCampaignShrinkTests {
    @Test func aFindingIsSavedShrunkAndRecheckedAndItsTraceReplaysIdentical() throws {
        let directory = try makeTemporaryDirectory("finding-campaign-shrink")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Noise lanes make the found schedule longer than it needs to be: shrinking has work to do.
        let plan = RunPlan.probed(
            scenario: LostInputNavigation.scenario, variant: "buggy", strategy: .campaignDefault, noise: 3)
        let observer = HeardCampaign()
        let result = try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: 0..<200, jobs: 1),
            options: .init(directory: directory.path, shrink: true, isolation: .inProcess)
        ).run(observer: observer)
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1 && finding.kind == .failure && finding.problem == nil)
        // The observer heard the schedules end, then the one finding.
        #expect(observer.events == ["finished \(result.report.schedules)", "saved \(finding.seed)"])
        guard case .shrunk(let report) = finding.shrink else {
            Issue.record("not shrunk: \(String(describing: finding.shrink))")
            return
        }
        #expect(report.after.nonFifo < report.before.nonFifo, "\(report.line)")
        #expect(finding.decisions.saved == report.after.decisions)
        #expect(finding.replay == .identical)
        #expect(FailureSignature(finding.verdict).matches(finding.foundVerdict))
        let path = try #require(finding.path)
        let catalog = ScenarioCatalog([LostInputNavigation.scenario])
        #expect(try TraceReplay.decide(ReplayRequest(trace: path), catalog: catalog).verdict == .identical)
        #expect(try TraceInput(path: path).header.seed == finding.seed)
    }

    @Test func anInOrderCampaignEndsInSavedFindingsThroughTheSameCall() throws {
        let directory = try makeTemporaryDirectory("finding-campaign-in-order")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(
            scenario: LostInputNavigation.scenario, variant: "buggy", strategy: try #require(StrategySpec(parsing: "surw")))
        #expect(plan.strategy.campaignShape == .inOrder)
        let result = try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: 0..<100, jobs: 2),
            options: .init(directory: directory.path, shrink: false, isolation: .inProcess)
        ).run()
        let finding = try #require(result.findings.first)
        #expect(finding.kind == .failure && finding.replay == .identical && finding.problem == nil)
        // In order: the campaign stopped at its first failure, the run of that seed.
        #expect(result.report.schedules == Int(finding.seed) + 1)
        #expect(result.report.learning != nil)
        #expect(try TraceInput(path: try #require(finding.path)).footer?.verdict == finding.foundVerdict)
    }
}
