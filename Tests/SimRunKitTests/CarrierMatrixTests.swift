import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

/// The lock-preemption matrix of the CarriersAndPreemption article, checked from `simrun` (an
/// executable built on `SimRun.main`, driven from the main thread) and from this test process: a
/// toolchain that changes what preemption sees fails here.
@Suite("Carrier matrix")
struct CarrierMatrixTests {
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SimCapture/SimCapture.docc/CarriersAndPreemption.md")

    @Test("simrun run carrier-probe --preempt: every construct as the matrix says", arguments: CarrierProbe.constructs)
    func fromSimrun(_ construct: (variant: String, summary: String, preempts: Bool)) throws {
        let run = try SimrunProcess.run(["run", "carrier-probe", "--variant", construct.variant, "--preempt"])
        #expect(run.status == (construct.preempts ? 0 : 1), "\(construct.variant): \(run.stdout)\(run.stderr)")
        if !construct.preempts {
            #expect(run.stdout.contains("invisible to preemption"), "\(construct.variant): \(run.stdout)")
        }
    }

    @Test("without --preempt no construct is a scheduling point")
    func withoutPreempt() throws {
        let run = try SimrunProcess.run(["run", "carrier-probe", "--variant", "nslock"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("run it with --preempt"), "\(run.stdout)")
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
