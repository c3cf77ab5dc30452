import Testing

@testable import SimBench

/// The bench's own arithmetic, without running it (`simrun bench --quick` runs it: BenchCommandTests).
@Suite struct BenchmarkTests {
    @Test func theJobsCurveDoublesUpToTheCores() {
        #expect(Benchmark.jobsCurve(upTo: 1) == [1, 2])
        #expect(Benchmark.jobsCurve(upTo: 2) == [1, 2])
        #expect(Benchmark.jobsCurve(upTo: 6) == [1, 2, 4, 6])
        #expect(Benchmark.jobsCurve(upTo: 16) == [1, 2, 4, 8, 16])
    }
}
