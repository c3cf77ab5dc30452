import Foundation
import SimTestSupport
import Testing

/// `simrun run`: a failure exits 1, saves its trace and prints the command that replays it; the seed
/// a campaign reports fails again with `run` as printed (run and fuzz share one default strategy,
/// which its help names).
@Suite struct RunCommandTests {
    @Test func runExitsOneOnAFailureAndPrintsTheReplayCommand() throws {
        let directory = try makeTemporaryDirectory()
        let failing = (0..<50).lazy.compactMap { seed -> (UInt64, String)? in
            let (status, output) = simrun([
                "run", "counter-race", "--variant", "buggy", "--seed", "\(seed)", "--strategy", "random",
                "--failure-dir", directory.path,
            ])
            return status == 1 ? (UInt64(seed), output) : nil
        }.first
        let (seed, output) = try #require(failing)
        #expect(output.contains("no lost update"))
        #expect(output.contains("simrun replay"))
        let path = directory.appendingPathComponent("counter-race-buggy-seed\(seed).simtrace").path
        #expect(FileManager.default.fileExists(atPath: path))
        let fixed = simrun(["run", "counter-race", "--variant", "fixed", "--seed", "\(seed)", "--strategy", "random"])
        #expect(fixed.0 == 0)
    }

    @Test func theSeedFuzzReportsFailsAgainWithRunAsPrinted() throws {
        let run = try SimrunProcess.run(["run", "lost-input-navigation", "--seed", "\(LostInputFixture.seed)"])
        #expect(run.status == 1, "run and fuzz share one default strategy: \(run.stdout)\(run.stderr)")
        let help = try SimrunProcess.run(["run", "--help"])
        #expect(help.stdout.contains("default: pct:depth=3"), "\(help.stdout)")
    }

    /// A run that traps is a CRASH with its trace (exit 1): on some schedules (seed 7 traps at event
    /// 7), and on the fifo schedule that plans `pct`'s step estimate, for a strategy that needs the
    /// estimate and one that does not, and with noise lanes (sized by that fifo run: the trap comes
    /// before the run's first event). The recordings themselves: SimEngineTests' `FifoCrashTests`.
    @Test(arguments: [
        ["--variant", "crashing", "--seed", "7", "--strategy", "random"],
        ["--variant", "crashing-always", "--seed", "3", "--strategy", "pct"],
        ["--variant", "crashing-always", "--seed", "3", "--strategy", "random"],
        ["--variant", "crashing-always", "--seed", "1", "--noise", "3"],
    ])
    func aRunThatTrapsIsACrashWithItsTrace(_ options: [String]) throws {
        let directory = try makeTemporaryDirectory("run-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("r.simtrace").path
        let run = try SimrunProcess.run(["run", "unruly-counter"] + options + ["--out", trace])
        #expect(run.status == 1, "\(options): \(run.stdout)\(run.stderr)")
        let expected =
            options.contains("--noise") ? "CRASH — crashed at event 0 (before the run's first event)"
            : options.contains("7") ? "CRASH — crashed at event 7" : "CRASH — crashed at event"
        #expect(run.stdout.contains(expected), "\(options): \(run.stdout)")
        #expect(run.stdout.contains("trace: \(trace)"), "\(options): \(run.stdout)")
    }

    /// `run --check-determinism` plans nothing in its own process: the fifo run that sizes the plan
    /// is recorded in a child, so a model that traps there is checked like any other.
    @Test func aDeterminismCheckOfCodeThatTrapsOnFifoReportsTheCrash() throws {
        let check = try SimrunProcess.run(
            ["run", "unruly-counter", "--variant", "crashing-always", "--check-determinism"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("deterministic — two processes recorded the same"), "\(check.stdout)")
        #expect(check.stdout.contains("verdict FAIL — crashed: Fatal error: worker.a always traps"), "\(check.stdout)")
        // The plan is the one a plain run uses: the same digest as the recording the check compares.
        let plain = try SimrunProcess.run(["run", "counter-race", "--seed", "3", "--check-determinism"])
        let run = try SimrunProcess.run(["run", "counter-race", "--seed", "3"])
        let digest = run.stdout.components(separatedBy: "digest ").last?.prefix(16) ?? ""
        #expect(!digest.isEmpty && plain.stdout.contains("digest \(digest)"), "\(plain.stdout) / \(run.stdout)")
    }
}
