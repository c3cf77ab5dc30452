import Foundation
import SimCore
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// Three tick lanes race a check; the check fails if any tick ran before it, naming how many did.
/// Shrinking keeps to the oracle, not the message: the shortest failing schedule lets one tick in.
private let checkSeesTicks = Scenario(
    name: "check-sees-ticks", summary: "a check that must run before any tick", variants: [.init("v", "")]
) { simulation, _ in
    let ticks = ValueBox(0)
    let seen = ValueBox<Int?>(nil)
    simulation.post(on: "check", "check.run") { seen.value = ticks.value }
    for lane in ["t1", "t2", "t3"] {
        simulation.post(on: lane, "\(lane).tick") { ticks.value += 1 }
    }
    simulation.atEnd("check-first") { (seen.value ?? 0) > 0 ? "the check saw \(seen.value ?? 0) ticks" : nil }
}

/// A saved finding's verdict is its saved trace's: after shrinking, the shrunk run's verdict (its
/// message may differ from the found one's), and `foundVerdict` keeps what the campaign saw.
@Suite struct ShrunkFindingVerdictTests {
    @Test func aShrunkFindingCarriesTheVerdictOfTheTraceItSaved() throws {
        let directory = try makeTemporaryDirectory("shrunk-verdict")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(scenario: checkSeesTicks, variant: "v", strategy: StrategySpec(kind: .random))
        var differing = 0
        for seed in UInt64(0)..<40 {
            let result = try FindingCampaign(
                plan: plan, configuration: Fuzzer.Configuration(seeds: seed..<(seed + 1), jobs: 1),
                options: .init(directory: directory.path, shrink: true, isolation: .inProcess)
            ).run()
            guard let finding = result.findings.first else { continue }
            let path = try #require(finding.path)
            let footer = try #require(try TraceInput(path: path).footer)
            #expect(finding.shrink != nil && finding.problem == nil, "seed \(seed)")
            #expect(finding.verdict == footer.verdict, "seed \(seed): \(finding.verdict) vs the trace's \(footer.verdict)")
            #expect(finding.verdict.message == "the check saw 1 ticks", "seed \(seed)")
            if finding.foundVerdict != finding.verdict { differing += 1 }
        }
        // The rule is only tested where shrinking changed the message.
        #expect(differing > 0, "no seed found more than one tick before the check")
    }
}
