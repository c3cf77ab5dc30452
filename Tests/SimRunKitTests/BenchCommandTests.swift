import Foundation
import SimEngine
import SimTestSupport
import Testing

@testable import SimBench
@testable import SimRunKit

/// `simrun bench --quick` runs and reports every figure, with its child processes (the fuzz workers,
/// the view model's baseline, the allocation counter); no timing is checked (timings belong to the
/// benchmark, never to tests). The measurements and the report's shape are tested through SimBench
/// in `BenchReportTests`.
@Suite struct BenchCommandTests {
    /// Every figure, with one scaling row per point of the `--jobs` curve past 1 (this machine's cores).
    static let keys =
        [
            "kernel_jobs_per_second", "timer_jobs_per_second", "async_jobs_per_second",
            "async_vs_platform_iterations_per_second",
            "carrier_jobs_per_second", "preempting_jobs_per_second", "preempting_campaign_schedules_per_second",
            "viewmodel_schedules_per_second", "record_events_per_second",
            "corpus_bytes_per_event", "corpus_file_bytes_per_event", "replay_events_per_second",
            "decode_events_per_second",
            "fuzz_schedules_per_second",
        ] + Benchmark.jobsCurve(upTo: Benchmark.processorCount).dropFirst().map { "fuzz_scaling_jobs_\($0)" }
        + [
            "fuzz_isolation_worker", "fuzz_isolation_child_per_schedule",
            "until_bug_pct", "until_bug_random", "linearizability_10", "linearizability_100", "linearizability_1000",
            "record_peak_memory",
        ] + AllocationProbe.Path.allCases.map { "allocations_per_\($0.rawValue)" }

    @Test func quickBenchReportsEveryFigureAsJSON() throws {
        let output = try SimrunProcess.run(["bench", "--quick", "--json"], timeout: 300)
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let figures = try #require(object?["figures"] as? [[String: Any]])
        let keys = figures.compactMap { $0["key"] as? String }
        #expect(keys == Self.keys)
        for figure in figures {
            let key = figure["key"] as? String ?? "?"
            #expect(figure["value"] is NSNumber, "\(key) has a value")
            #expect(figure["target"] is String, "\(key) has a target")
            #expect(figure["baseline_name"] is String, "\(key) names its baseline")
            if key.hasPrefix("allocations_per_") {
                // Counted (the debug build's libSimAllocCount beside simrun) and within its threshold.
                let note = figure["note"] as? String ?? ""
                #expect(!note.contains("not counted"), "\(key): \(note)")
                #expect(((figure["ratio"] as? NSNumber)?.doubleValue ?? 2) <= 1, "\(key) is within its threshold")
            }
        }
    }

    /// Without `--json` the command prints the report's table: here of one measurement.
    @Test func theBenchPrintsTheTable() throws {
        let output = try SimrunProcess.run(["bench", "--quick", "--only", "kernel"], timeout: 300)
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.contains("| figure | value | baseline (same run) | ratio | target | met |"))
        // The figure's row, plus the header and separator rows.
        #expect(output.stdout.split(separator: "\n").filter { $0.hasPrefix("| ") }.count == 3, "\(output.stdout)")
    }

    /// `simrun bench --only viewmodel` measures both sides: simrun's in-process exploration of the
    /// view model (every schedule passing) and the TestClock + withMainSerialExecutor baseline child.
    @Test func theViewModelBenchRowMeasuresBothSides() throws {
        let run = try SimrunProcess.run(["bench", "--quick", "--only", "viewmodel"], timeout: 300)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("@MainActor view-model schedules/s, in process"), "\(run.stdout)")
        #expect(run.stdout.contains("x the baseline's runs/s"), "\(run.stdout)")
        #expect(
            !run.stdout.contains("baseline not measured") && !run.stdout.contains("NOT all passed"), "\(run.stdout)")
        #expect(!run.stdout.contains("did not all pass"), "\(run.stdout)")
    }
}
