import Foundation
import SimTestSupport
import Testing

/// A crash trace of `ledger-recorded`'s `crash-site` replayed, shrunk and explained by that executable
/// run as an optimized build would trap (issue #43): with SIMRUN_TEST_TRAP=signal the same function
/// faults without a message (the same crash), with SIMRUN_TEST_TRAP=elsewhere another function of
/// the same job does (another crash). The variable reaches the executable only through its
/// environment, so these run it as a process; the rule itself (`CrashPlace`) and the recorded
/// frames are SimEngineTests' CrashPlaceTests.
@Suite struct OptimizedBuildCrashTests {

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

    @Test(.enabled(if: TestPlatform.isLinux, "a trap without a message is told from its signal on Linux only"))
    func aBuildThatTrapsWithoutAMessageShrinksExplainsAndReplaysTheCrash() throws {
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
    }

    @Test(.enabled(if: TestPlatform.isLinux, "a trap without a message is told from its signal on Linux only"))
    func anotherCrashOfTheSameJobIsNotTheRecordedOne() throws {
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
    }
}
