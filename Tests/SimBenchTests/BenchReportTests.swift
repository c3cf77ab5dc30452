import Foundation
import Testing

@testable import SimBench

/// Measurements run through the SimBench module at tiny sizes, and the report `simrun bench` prints
/// of them: every figure has a value, a baseline and a target, in the table and in the JSON object.
/// No timing is checked (timings belong to the benchmark, never to tests). The whole `--quick` bench,
/// with its child processes, runs through the command in SimRunKitTests' `BenchCommandTests`.
@Suite struct BenchReportTests {
    /// The in-process measurements that write no file, at a few thousand jobs each.
    static func figures() throws -> [BenchFigure] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Benchmark.Configuration.quick(in: directory.path)
        configuration.kernelJobs = 5_000
        configuration.timerJobs = 5_000
        configuration.linearizabilityCalls = 1_000
        return try Benchmark(configuration: configuration).run(only: ["kernel", "timers", "linearizability"])
    }

    @Test func eachMeasurementReportsItsFiguresWithBaselinesAndTargets() throws {
        let figures = try Self.figures()
        #expect(
            figures.map(\.key) == [
                "kernel_jobs_per_second", "timer_jobs_per_second", "linearizability_10", "linearizability_100",
                "linearizability_1000",
            ])
        for figure in figures {
            #expect(figure.value.isFinite && figure.value > 0, "\(figure.key): \(figure.value)")
            #expect(!figure.baselineName.isEmpty && !figure.target.isEmpty, "\(figure.key)")
        }
    }

    @Test func theTableHasOneRowPerFigureAndTheJSONOneObjectPerFigure() throws {
        let figures = try Self.figures()
        let report = BenchReport(figures: figures, quick: true)
        #expect(report.table.first == "| figure | value | baseline (same run) | ratio | target | met |")
        #expect(report.table.filter { $0.hasPrefix("| ") }.count == figures.count + 2)
        let object = try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any]
        #expect(object?["command"] as? String == "simrun bench" && object?["quick"] as? Bool == true)
        let rows = try #require(object?["figures"] as? [[String: Any]])
        #expect(rows.compactMap { $0["key"] as? String } == figures.map(\.key))
        for row in rows {
            let key = row["key"] as? String ?? "?"
            #expect(row["value"] is NSNumber, "\(key) has a value")
            #expect(row["target"] is String, "\(key) has a target")
            #expect(row["baseline_name"] is String, "\(key) names its baseline")
        }
    }
}
