import Foundation
import SimCapture
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// A crash inside a system library (issue #40, item 8): app code whose ordering bug makes libdispatch
/// trap (`dispatch-group-double-leave`: a response and its timeout both leave a `DispatchGroup`). Run
/// in child processes of `simrun`, where the trap is a finding: its trace names libdispatch as where
/// it trapped and the app's function as its caller (what `fuzz`, `replay` and `explain` print, and
/// `--json`'s `library`); it replays as the same crash; the fix is clean.
@Suite(.enabled(if: DispatchCapturing.isActive, "GCD runs under the scheduler, and traps are located, on Linux only for now"))
struct SystemLibraryCrashTests {
    static let inside =
        "the trap is inside libdispatch.so, a library the program calls: dispatch_group_leave, "
        + "called from DispatchGroupDoubleLeave.Prefetch.finish(_:)"

    @Test func theCrashFindingAndItsTraceNameTheLibrary() throws {
        let directory = try makeTemporaryDirectory("library-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ScenarioCampaigns.fuzz(
            try ScenarioCampaigns.plan("dispatch-group-double-leave"), isolation: ScenarioCampaigns.children,
            into: directory)
        let finding = try #require(result.findings.first, "the default campaign found nothing")
        #expect(finding.kind == .crash && ScenarioCampaigns.isCrash(finding.verdict) && finding.problem == nil, "\(finding.verdict)")
        let path = try #require(finding.path)
        #expect(path.hasSuffix("/dispatch-group-double-leave-buggy-crashed.simtrace"))
        let footer = try #require(try TraceInput(path: path).footer)
        let line = CrashPlace.libraryLine(footer.trapFrames) ?? ""
        #expect(line.hasPrefix(Self.inside), "\(footer.trapFrames)")
        #expect(CrashPlace(job: nil, functions: footer.trapFrames, message: nil).library == "libdispatch.so")
        #expect(try ScenarioCampaigns.replayInChild(path) == .identical, "the trace replays as the same crash")
    }

    @Test func theFixIsCleanAndDeterministic() throws {
        let directory = try makeTemporaryDirectory("library-crash-fixed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixed = try ScenarioCampaigns.plan("dispatch-group-double-leave", variant: "fixed")
        let result = try ScenarioCampaigns.fuzz(
            fixed, seeds: 0..<500, isolation: ScenarioCampaigns.children, into: directory)
        #expect(result.findings.isEmpty && result.report.schedules == 500, "\(result.findings.map(\.verdict))")
        let check = try ScenarioCampaigns.determinism(fixed, seeds: 0..<500)
        #expect(check.checked == 500 && check.differences.isEmpty && check.incomplete == nil, "\(check.differences)")
    }

    /// A trap in the program's own code names no library.
    @Test func aCrashInTheProgramNamesNoLibrary() throws {
        let directory = try makeTemporaryDirectory("program-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Not planned here: planning runs the fifo schedule, which traps.
        let plan = RunPlan.Descriptor(
            scenario: "unruly-counter", variant: "crashing-always", strategy: .plainOrder, estimatedSteps: 1, noise: 0,
            carriers: .off)
        let launcher = try #require(ScenarioCampaigns.children.launcher)
        let recorded = try IsolatedRecording(plan: plan, launcher: launcher)
            .record(seed: 0, to: directory.appendingPathComponent("c.simtrace").path)
        #expect(recorded.crashed && ScenarioCampaigns.isCrash(recorded.verdict), "\(recorded.verdict)")
        #expect(!recorded.trapFrames.isEmpty, "the trap is located")
        #expect(CrashPlace.libraryLine(recorded.trapFrames) == nil, "\(recorded.trapFrames)")
    }
}
