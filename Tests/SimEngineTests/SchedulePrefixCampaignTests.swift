import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// A campaign around a recorded schedule (`fuzz --from <trace> --keep N`: a plan with a
/// `SchedulePrefix`): keeping the whole trace reproduces it exactly in every run; keeping nothing is
/// plain fuzzing. What `fuzz --from` says and refuses: SimRunKitTests' `FuzzFindingsCommandTests`.
@Suite struct SchedulePrefixCampaignTests {
    /// A failing trace of lost-input-navigation, saved by a campaign into `directory`.
    private func failingTrace(in directory: URL) throws -> String {
        let plan = try BuiltinCampaigns.plan("lost-input-navigation", in: .inProcess)
        let result = try BuiltinCampaigns.fuzz(
            plan, seeds: 0..<500, isolation: .inProcess, into: directory.appendingPathComponent("found"))
        return try #require(result.findings.first?.path, "lost-input-navigation fails within 500 seeds")
    }

    @Test func keepingTheWholeTraceReproducesItExactly() throws {
        let directory = try makeTemporaryDirectory("fuzz-from")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try failingTrace(in: directory)
        let original = try TraceFile.load(path: trace)
        let plan = try BuiltinCampaigns.plan(
            "lost-input-navigation", prefix: .init(source: trace, keep: original.decisions.count), in: .inProcess)
        let result = try BuiltinCampaigns.fuzz(
            plan, seeds: 0..<3, keepGoing: true, isolation: .inProcess, into: directory.appendingPathComponent("again"))
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1 && finding.seed == 0)
        #expect(result.report.failures == 3 && finding.occurrences == 3, "every run keeps the whole failing schedule")
        let again = try TraceFile.load(path: try #require(finding.path))
        #expect(again.digest == original.digest)
        #expect(again.footer?.digest == original.footer?.digest)
        #expect(again.events.count == original.events.count)
    }

    @Test func keepingNothingIsPlainFuzzing() throws {
        let directory = try makeTemporaryDirectory("fuzz-from")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try failingTrace(in: directory)
        let plain = try BuiltinCampaigns.fuzz(
            try BuiltinCampaigns.plan("lost-input-navigation", in: .inProcess), seeds: 0..<300, shrink: true,
            isolation: .inProcess, into: directory.appendingPathComponent("a"))
        let from = try BuiltinCampaigns.fuzz(
            try BuiltinCampaigns.plan("lost-input-navigation", prefix: .init(source: trace, keep: 0), in: .inProcess),
            seeds: 0..<300, shrink: true, isolation: .inProcess, into: directory.appendingPathComponent("b"))
        let a = try #require(plain.findings.first)
        let b = try #require(from.findings.first)
        #expect(plain.findings.count == from.findings.count)
        #expect(a.seed == b.seed && a.foundVerdict == b.foundVerdict && a.shrink == b.shrink)
        #expect(try TraceFile.load(path: try #require(a.path)).digest == TraceFile.load(path: try #require(b.path)).digest)
    }
}
