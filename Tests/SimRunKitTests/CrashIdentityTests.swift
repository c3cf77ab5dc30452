import Foundation
import SimCore
import SimEngine
import SimTestSupport
import SimTrace
import Testing

/// A crash is the same crash across build configurations (issue #43): identified by the job it
/// trapped in and the functions it trapped in, the message compared only where both crashes have
/// one. An optimized build dies of a signal without a message; `ledger-recorded`'s `crash-site`
/// stands in for one when SIMRUN_TEST_TRAP=signal (the same function faults without a message), and
/// for another crash of the same job when SIMRUN_TEST_TRAP=elsewhere.
@Suite struct CrashIdentityTests {
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

    // MARK: From the executables

    static func executable() -> URL {
        SimrunProcess.executable.deletingLastPathComponent().appendingPathComponent("ledger-recorded")
    }

    /// A crash trace of `crash-site` recorded by the debug build as it is (with the message).
    static func crashTrace(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("crash.simtrace").path
        for seed in 0..<32 {
            let run = try SimrunProcess.run(
                executable: executable(),
                ["run", "crash-site", "--strategy", "random", "--seed", String(seed), "--out", path], in: directory)
            if run.status == 1 { return path }
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
    }

    @Test(.enabled(if: TestPlatform.isLinux, "a trap without a message is told from its signal on Linux only"))
    func aBuildThatTrapsWithoutAMessageShrinksExplainsAndReplaysTheCrash() throws {
        #if os(Linux)
            let directory = try makeTemporaryDirectory("crash-release")
            defer { try? FileManager.default.removeItem(at: directory) }
            let trace = try Self.crashTrace(in: directory)
            let release = ["SIMRUN_TEST_TRAP": "signal"]
            let replay = try SimrunProcess.run(
                executable: Self.executable(), ["replay", trace], in: directory, environment: release)
            #expect(replay.status == 0 && replay.stdout.contains("identical — crashed at event"), "\(replay.stdout)")
            let shrink = try SimrunProcess.run(
                executable: Self.executable(), ["shrink", trace, "-o", "small.simtrace"], in: directory,
                environment: release)
            #expect(shrink.status == 0, "\(shrink.stdout)\(shrink.stderr)")
            #expect(shrink.stdout.contains("shrunk in"), "\(shrink.stdout)")
            let explain = try SimrunProcess.run(
                executable: Self.executable(), ["explain", trace, "--runs", "3"], in: directory, environment: release)
            #expect(explain.status == 0, "\(explain.stdout)\(explain.stderr)")
            #expect(explain.stdout.contains("◀ certain from here"), "\(explain.stdout)")
        #endif
    }

    @Test(.enabled(if: TestPlatform.isLinux, "a trap without a message is told from its signal on Linux only"))
    func anotherCrashOfTheSameJobIsNotTheRecordedOne() throws {
        #if os(Linux)
            let directory = try makeTemporaryDirectory("crash-elsewhere")
            defer { try? FileManager.default.removeItem(at: directory) }
            let trace = try Self.crashTrace(in: directory)
            let elsewhere = ["SIMRUN_TEST_TRAP": "elsewhere"]
            let shrink = try SimrunProcess.run(
                executable: Self.executable(), ["shrink", trace, "-o", "small.simtrace"], in: directory,
                environment: elsewhere)
            #expect(shrink.status != 0, "\(shrink.stdout)")
            #expect(shrink.stderr.contains("does not reproduce on this build"), "\(shrink.stderr)")
            let replay = try SimrunProcess.run(
                executable: Self.executable(), ["replay", trace], in: directory, environment: elsewhere)
            #expect(replay.status == 1, "\(replay.stdout)")
            #expect(replay.stdout.contains("DIVERGED"), "\(replay.stdout)")
            #expect(replay.stdout.contains("the same events, but another crash"), "\(replay.stdout)")
        #endif
    }
}
