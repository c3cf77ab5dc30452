import SimCore
import Testing

@testable import SimEngine

/// A shrink that trades fifo picks for fewer departures reads as the shrink it is (#44, F8).
@Suite struct ShrinkReportLineTests {
    @Test func aShrinkThatAddsFifoPicksSaysWhatItReduced() {
        let report = ShrinkReport(
            runs: 2, before: ShrinkCounts(decisions: 7, nonFifo: 6, events: 40, steps: 12),
            after: ShrinkCounts(decisions: 9, nonFifo: 0, events: 38, steps: 12), verdict: .fail(oracle: "o", message: "m"))
        #expect(report.line.hasPrefix("shrunk in 2 runs: non-fifo decisions 6 → 0"), "\(report.line)")
        #expect(!report.line.contains("decisions 7 → 9"), "no total that reads as growth: \(report.line)")
        #expect(report.line.contains("fifo decisions 1 → 9"), "\(report.line)")
    }
}
