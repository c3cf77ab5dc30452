import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// The lock-preemption matrix of the CarriersAndPreemption article, checked in a child process of
/// `simrun` (an executable built on `SimRun.main`, as `simrun run carrier-probe --preempt` runs it)
/// and in this test process (driven off the main thread): a toolchain that changes what preemption sees fails here.
@Suite("Carrier matrix")
struct CarrierMatrixTests {
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SimCapture/SimCapture.docc/CarriersAndPreemption.md")

    /// In a child process of `simrun`, recorded with the campaign's default strategy.
    @Test("in a simrun child: every construct as the matrix says", arguments: CarrierProbe.constructs)
    func inASimrunChild(_ construct: (variant: String, summary: String, preempts: Bool)) throws {
        let directory = try makeTemporaryDirectory("carrier-matrix")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = try ScenarioCampaigns.plan("carrier-probe", variant: construct.variant, preempt: true)
        let launcher = try #require(ScenarioCampaigns.children.launcher)
        let recorded = try IsolatedRecording(plan: try plan.descriptor(), launcher: launcher)
            .record(seed: 0, to: directory.appendingPathComponent("c.simtrace").path)
        #expect(recorded.verdict.isFailure == !construct.preempts, "\(construct.variant): \(recorded.verdict)")
        if !construct.preempts {
            #expect(recorded.verdict.message.contains("invisible to preemption"), "\(construct.variant): \(recorded.verdict)")
        }
    }

    @Test("without carriers no construct is a scheduling point")
    func withoutPreempt() throws {
        let plan = try ScenarioCampaigns.plan("carrier-probe", variant: "nslock")
        let run = plan.run(seed: 0, strategy: plan.makeStrategy())
        #expect(run.verdict.isFailure, "\(run.verdict)")
        #expect(run.verdict.message.contains("run it with --preempt"), "\(run.verdict)")
    }

    @Test("in swift test (driven off the main thread): every construct as the matrix says")
    func inThisProcess() {
        for construct in CarrierProbe.constructs {
            let result = CarrierProbe.scenario.running(on: .preemptLocks)
                .run(variant: construct.variant, seed: 0, strategy: RandomStrategy())
            #expect(result.verdict.isFailure == !construct.preempts, "\(construct.variant): \(result.verdict)")
        }
    }

    @Test("the article's matrix names every construct with what the probe measures")
    func articleMatchesProbe() throws {
        let article = try String(contentsOf: Self.article, encoding: .utf8)
        for construct in CarrierProbe.constructs {
            let row = article.split(separator: "\n").first {
                $0.hasPrefix("| ") && $0.contains("(`\(construct.variant)`)")
            }
            let line = try #require(row.map(String.init), "no matrix row for \(construct.variant)")
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let linux = cells.count > 1 ? cells[1] : ""
            #expect(linux.hasPrefix(construct.preempts ? "yes" : "no"), "\(construct.variant): \(line)")
        }
    }
}
