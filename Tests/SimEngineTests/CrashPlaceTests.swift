import Foundation
import LedgerFixture
import SimCore
import SimTestSupport
import Testing

@testable import SimEngine

/// A crash is the same crash across build configurations (issue #43): `CrashPlace` identifies it by
/// the job it trapped in and the functions it trapped in, the message compared only where both
/// crashes have one (an optimized build dies of a signal without a message). And a crash recorded in
/// a child of `ledger-recorded` (`crash-site`) keeps its message and where it trapped in its footer.
/// (OptimizedBuildCrashTests in SimRunKitTests runs that executable as an optimized build would trap.)
@Suite struct CrashPlaceTests {
    // MARK: The rule

    static let recorded = CrashPlace(
        job: "b/fire", functions: ["fireBeforeArmed()", "closure #2 in closure #1 in crashSite"],
        message: "Fatal error: fired before armed")

    @Test func aCrashWithAMessageIsTheCrashOfARunThatDiedBySignalInTheSameFunctionAndJob() {
        let release = CrashPlace(job: "b/fire", functions: ["fireBeforeArmed()", "closure #2"], message: nil)
        #expect(Self.recorded.isSameCrash(as: release) && release.isSameCrash(as: Self.recorded))
        // An optimizer that inlined the trapping function into its caller: the caller is the
        // innermost function there, and one of the recorded frames.
        let inlined = CrashPlace(
            job: "b/fire", functions: ["closure #2 in closure #1 in crashSite", "Simulation.execute(_:)"], message: nil)
        #expect(Self.recorded.isSameCrash(as: inlined))
    }

    @Test func anotherFunctionAnotherJobOrAnotherMessageIsAnotherCrash() {
        let elsewhere = CrashPlace(
            job: "b/fire", functions: ["trapElsewhere()", "closure #2 in closure #1 in crashSite"], message: nil)
        #expect(!Self.recorded.isSameCrash(as: elsewhere) && !elsewhere.isSameCrash(as: Self.recorded))
        let otherJob = CrashPlace(job: "a/arm", functions: ["fireBeforeArmed()"], message: nil)
        #expect(!Self.recorded.isSameCrash(as: otherJob))
        let otherMessage = CrashPlace(
            job: "b/fire", functions: ["fireBeforeArmed()"], message: "Fatal error: armed twice")
        #expect(!Self.recorded.isSameCrash(as: otherMessage))
        // Numbers aside, as findings are grouped.
        let numbered = CrashPlace(job: "j", functions: [], message: "Precondition failed: negative balance -5")
        let renumbered = CrashPlace(job: "j", functions: [], message: "Precondition failed: negative balance -7")
        #expect(numbered.isSameCrash(as: renumbered))
    }

    @Test func withNothingElseToCompareTheJobDecides() {
        // A trace recorded before trap frames were written (a message, no functions) against a run
        // that died without a message: only the job can be compared.
        let old = CrashPlace(job: "main/view.layout", functions: [], message: "Fatal error: Reentrant updates")
        #expect(old.isSameCrash(as: CrashPlace(job: "main/view.layout", functions: ["f()"], message: nil)))
        #expect(!old.isSameCrash(as: CrashPlace(job: "main/view.update", functions: ["f()"], message: nil)))
    }

    // MARK: Recorded in a child

    /// A crash trace of `crash-site` recorded in a child of `ledger-recorded` (a debug build: with
    /// the runtime's message), from the first random seed that crashes.
    static func crashTrace(in directory: URL) throws -> String {
        let launcher = ProcessLauncher(
            executable: SimrunProcess.executable.deletingLastPathComponent().appendingPathComponent("ledger-recorded")
                .path)
        let plan = try RunPlan.probed(scenario: crashSite, variant: "buggy", strategy: StrategySpec(kind: .random))
            .descriptor()
        let path = directory.appendingPathComponent("crash.simtrace").path
        for seed in UInt64(0)..<32 {
            if try IsolatedRecording(plan: plan, launcher: launcher).record(seed: seed, to: path).crashed {
                return path
            }
        }
        Issue.record("no random seed of crash-site in 0..<32 crashed")
        return path
    }

    @Test func aCrashTraceRecordsWhereItTrapped() throws {
        let directory = try makeTemporaryDirectory("crash-frames")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.crashTrace(in: directory)
        let footer = try #require(try TraceInput(path: trace).footer)
        #expect(footer.verdict.message == "Fatal error: fired before armed")
        #if os(Linux)
            #expect(footer.trapFrames.first == "fireBeforeArmed()", "\(footer.trapFrames)")
            #expect(footer.trapFrames.count <= 4 && footer.trapFrames.count >= 2, "\(footer.trapFrames)")
        #endif
        // The footer still reads as a crash to every reader: the frames ride after its oracle.
        #expect(footer.verdict.oracle == "crashed")
        // Replayed in a child of the same build, it is the same crash.
        let report = try TraceReplay.decide(
            ReplayRequest(trace: trace), catalog: ScenarioCatalog([crashSite]),
            isolation: .processes(
                ProcessLauncher(
                    executable: SimrunProcess.executable.deletingLastPathComponent()
                        .appendingPathComponent("ledger-recorded").path)))
        #expect(report.verdict == .identical && report.outcome.isCrash, "\(report.verdict)")
    }
}
