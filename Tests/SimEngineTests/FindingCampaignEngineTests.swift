import Foundation
import SimCore
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
    @Test func distinctFailuresOfOneOracleAreSavedApartAndRechecked() throws {
        let directory = try makeTemporaryDirectory("finding-campaign-engine")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan(scenario: eitherFirst, variant: "v", strategy: StrategySpec(kind: .random))
        var configuration = Fuzzer.Configuration(seeds: 0..<40, jobs: 1)
        configuration.keepGoing = true
        let result = try FindingCampaign(
            plan: plan, configuration: configuration,
            options: .init(directory: directory.path, shrink: false, isolation: .inProcess)
        ).run()
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
        let again = try FindingCampaign(
            plan: plan, configuration: configuration,
            options: .init(directory: directory.path, shrink: false, isolation: .inProcess)
        ).run()
        #expect(again.findings.map(\.path) == result.findings.map(\.path))
    }
}
