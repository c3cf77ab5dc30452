import Foundation
import SimTestSupport
import Testing

/// Issue #30's rule, checked over every strategy: user code that traps (on the fifo schedule, or
/// only on some schedules) is a CRASH finding with a trace wherever it runs — `fuzz`, `run --out`,
/// `explain`, `shrink` — and simrun itself never dies of a signal. `unruly-counter` is such code:
/// `crashing-always` trips a precondition on every schedule, `crashing` only after a stale read.
@Suite struct TrapsEverywhereTests {
    static let strategies = [
        "fifo", "random", "pct", "delay", "dfs", "portfolio", "pos", "surw", "coverage", "nsurw", "rff",
    ]

    /// Exit statuses of a command that judged something: never a signal's (128 + n) or a crash's.
    static func judged(_ output: SimrunProcess.Output) -> Bool { output.status == 0 || output.status == 1 }

    @Test(arguments: strategies) func codeThatTrapsOnFifoIsACrashFindingOfEveryStrategy(_ strategy: String) throws {
        let directory = try makeTemporaryDirectory("traps-\(strategy)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("found").path
        let fuzz = try SimrunProcess.run(
            [
                "fuzz", "unruly-counter", "--variant", "crashing-always", "--strategy", strategy, "--seeds", "4",
                "--no-show", "--out", out,
            ], in: directory)
        #expect(fuzz.status == 1, "\(strategy): \(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH"), "\(strategy): \(fuzz.stdout)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix("crashed.simtrace") }
        #expect(saved.count == 1, "\(strategy): \(saved)")

        let trace = directory.appendingPathComponent("run.simtrace").path
        let run = try SimrunProcess.run(
            [
                "run", "unruly-counter", "--variant", "crashing-always", "--strategy", strategy, "--seed", "1",
                "--out", trace,
            ], in: directory)
        #expect(run.status == 1, "\(strategy): \(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("CRASH"), "\(strategy): \(run.stdout)")
        let replay = try SimrunProcess.run(["replay", trace], in: directory)
        #expect(replay.status == 0 && replay.stdout.contains("identical — crashed at event"), "\(replay.stdout)")
    }

    /// `--noise N` sizes its lanes by the variant's fifo run: that run happens where the schedules
    /// run (a child), so a model that traps on fifo under noise is a CRASH finding, never exit 132.
    @Test func codeThatTrapsOnFifoUnderNoiseIsACrashFinding() throws {
        let directory = try makeTemporaryDirectory("traps-noise")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("found").path
        let fuzz = try SimrunProcess.run(
            [
                "fuzz", "unruly-counter", "--variant", "crashing-always", "--noise", "3", "--seeds", "4",
                "--no-show", "--out", out,
            ], in: directory)
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH"), "\(fuzz.stdout)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix("crashed.simtrace") }
        #expect(saved.count == 1, "\(saved)")

        let trace = directory.appendingPathComponent("run.simtrace").path
        let run = try SimrunProcess.run(
            ["run", "unruly-counter", "--variant", "crashing-always", "--noise", "3", "--seed", "1", "--out", trace],
            in: directory)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("CRASH"), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: trace), "\(run.stdout)")
        let replay = try SimrunProcess.run(["replay", trace], in: directory)
        #expect(Self.judged(replay), "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("crashed"), "\(replay.stdout)")
        // The trap came in the fifo run that sizes the noise lanes, before any event of the run.
        #expect(run.stdout.contains("crashed at event 0 (before the run's first event)"), "\(run.stdout)")
    }

    /// `fuzz --check-determinism` over seeds that trap: a seed trapping the same way in both checking
    /// processes is a deterministic crash (the campaign's CRASH finding), not a check cut short; the
    /// seeds after it are still compared.
    @Test func aDeterminismCheckComparesSeedsThatTrap() throws {
        let directory = try makeTemporaryDirectory("traps-determinism")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            [
                "fuzz", "unruly-counter", "--variant", "crashing", "--strategy", "random", "--seeds", "40",
                "--keep-going", "--check-determinism", "--no-show", "--out",
                directory.appendingPathComponent("out").path,
            ], in: directory)
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH"), "\(fuzz.stdout)")
        #expect(!fuzz.stdout.contains("NOT COMPLETE"), "\(fuzz.stdout)")
        #expect(!fuzz.stdout.contains("NONDETERMINISTIC"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("determinism: 40 seeds checked"), "\(fuzz.stdout)")
        #expect(
            fuzz.stdout.contains("trapped the same way in both processes (deterministic crash): seeds 7, 9,"),
            "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains(": Precondition failed: stale write"), "\(fuzz.stdout)")
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

    @Test func codeThatTrapsOnSomeSchedulesIsFoundExplainedAndShrunk() throws {
        let directory = try makeTemporaryDirectory("traps-some")
        defer { try? FileManager.default.removeItem(at: directory) }
        for strategy in Self.strategies {
            let fuzz = try SimrunProcess.run(
                [
                    "fuzz", "unruly-counter", "--variant", "crashing", "--strategy", strategy, "--seeds", "6",
                    "--no-show", "--out", directory.appendingPathComponent(strategy).path,
                ], in: directory)
            #expect(Self.judged(fuzz), "\(strategy): exit \(fuzz.status) \(fuzz.stderr)")
        }
        // A crash of the schedules that trap: found by a random campaign that goes on past findings.
        let out = directory.appendingPathComponent("keep-going").path
        let fuzz = try SimrunProcess.run(
            [
                "fuzz", "unruly-counter", "--variant", "crashing", "--strategy", "random", "--seeds", "40",
                "--keep-going", "--no-show", "--out", out,
            ], in: directory)
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        let crash = out + "/unruly-counter-crashing-crashed.simtrace"
        #expect(FileManager.default.fileExists(atPath: crash), "\(fuzz.stdout)")

        let explain = try SimrunProcess.run(["explain", crash, "--runs", "3"], in: directory)
        #expect(Self.judged(explain), "exit \(explain.status) \(explain.stderr)")
        #expect(explain.stdout.contains("re-fuzzes the rest 3 times"), "\(explain.stdout)")

        let shrunk = directory.appendingPathComponent("shrunk.simtrace").path
        let shrink = try SimrunProcess.run(["shrink", crash, "-o", shrunk], in: directory)
        #expect(shrink.status == 0, "\(shrink.stdout)\(shrink.stderr)")
        let replay = try SimrunProcess.run(["replay", shrunk], in: directory)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("identical — crashed at event"), "\(replay.stdout)")
        #expect(replay.stdout.contains("stale"), "the same trap: \(replay.stdout)")
    }
}
