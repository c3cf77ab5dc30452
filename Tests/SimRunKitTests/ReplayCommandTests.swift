import Foundation
import LedgerFixture
import SimCore
import SimEngine
import SimScenarios
import SimTestSupport
import SimTesting
import SimTrace
import Testing

@testable import SimRunKit

/// What `simrun replay` prints, its exit codes and `--json` for the verdicts `TraceReplay` decides
/// (SimEngineTests' TraceReplayTests, IdentityReplayTests, FixCheckTests and OtherBuildReplayTests
/// decide them): a fix checked on the recorded schedule, a trace judged by other builds of a user's
/// executable (the `ledger-*` builds, Tests/BuildFixtures), build labels, and `--bisect`'s codes
/// as `git bisect run` reads them; a trace read from a pipe, replayed (and explained) like a file;
/// truncated, crashing and damaged traces (their verdicts: SimEngineTests' `TraceReplayInChildTests`).
@Suite struct ReplayCommandTests {
    static func executable(_ name: String) -> URL {
        SimrunProcess.executable.deletingLastPathComponent().appendingPathComponent(name)
    }

    static func run(_ name: String, _ arguments: [String], in directory: URL, environment: [String: String]? = nil)
        throws -> SimrunProcess.Output
    {
        try SimrunProcess.run(executable: executable(name), arguments, in: directory, environment: environment)
    }

    static func document(_ output: SimrunProcess.Output) throws -> JSONValue {
        try JSONValue(parsing: output.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Records a failing schedule of `ledger` by the buggy build into `directory/ledger.simtrace`
    /// (random walks: about one seed in two takes the payout's read ahead of the deposit).
    static func recordLedgerFailure(in directory: URL, label: String? = nil) throws -> String {
        let path = directory.appendingPathComponent("ledger.simtrace").path
        for seed in 0..<32 {
            let output = try run(
                "ledger-recorded",
                ["run", "ledger", "--strategy", "random", "--seed", String(seed), "--out", path]
                    + (label.map { ["--build-label", $0] } ?? []), in: directory)
            if output.status == 1 { return path }
            #expect(output.status == 0, "\(output.stderr)")
        }
        Issue.record("no failing seed of ledger in 0..<32")
        return path
    }

    // MARK: A fix checked on the recorded schedule

    @Test func aFixThatRemovesTheRaceSaysSoAndTheNoteGoesToStderr() throws {
        let directory = try makeTemporaryDirectory("replay-fix")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The first random seed of stale-search that fails with one non-fifo decision (the race).
        let seed = try #require(
            (UInt64(0)..<500).first {
                let result = staleSearch.run(variant: "buggy", seed: $0, strategy: RandomStrategy())
                return result.verdict.isFailure && result.deviations == 1
            })
        let trace = directory.appendingPathComponent("stale.simtrace").path
        let recorded = try Self.run(
            "ledger-recorded", ["run", "stale-search", "--strategy", "random", "--seed", "\(seed)", "--out", trace],
            in: directory)
        #expect(recorded.status == 1, "\(recorded.stdout)\(recorded.stderr)")

        let fixed = try Self.run("ledger-recorded", ["replay", trace, "--variant", "fixed"], in: directory)
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("schedule of buggy replayed on fixed: pass"), "\(fixed.stdout)")
        #expect(fixed.stdout.contains("(0 of 1 non-fifo)"), "\(fixed.stdout)")
        #expect(fixed.stdout.contains("race removed: the fix removes the recorded race (decision "), "\(fixed.stdout)")
        #expect(!fixed.stdout.contains("note:"))
        #expect(
            fixed.stderr.contains("note: decision ") && fixed.stderr.contains("could not be followed"),
            "\(fixed.stderr)")

        let json = try Self.run("ledger-recorded", ["replay", trace, "--variant", "fixed", "--json"], in: directory)
        let document = try Self.document(json)
        #expect(json.status == 0 && document["exitCode"]?.intValue == 0)
        #expect(document["verdict"]?.stringValue == "pass")
        #expect(document["followed"]?.stringValue?.contains("(0 of 1 non-fifo)") == true, "\(json.stdout)")
        let evidence = try #require(document["raceRemoved"], "\(json.stdout)")
        #expect(evidence["reasons"]?.arrayValue?.compactMap(\.stringValue) == ["vanished"], "\(json.stdout)")
        #expect(evidence["cancelled"]?.boolValue == true && evidence["failures"]?.intValue == 0)

        let noisy = try Self.run(
            "ledger-recorded", ["replay", trace, "--variant", "buggy", "--noise", "1"], in: directory)
        #expect(noisy.status == 1, "\(noisy.stdout)")
        #expect(noisy.stdout.contains("replayed on buggy with 1 noise lanes: FAIL"), "\(noisy.stdout)")
        #expect(noisy.stdout.contains("(all 1 non-fifo)"), "\(noisy.stdout)")
    }

    @Test func theHelpDocumentsExitTwo() throws {
        let replayHelp = try SimrunProcess.run(["replay", "--help"])
        #expect(replayHelp.status == 0)
        #expect(replayHelp.stdout.contains("  2  ") || replayHelp.stdout.contains("inconclusive: replay"))
        #expect(try SimrunProcess.run(["--help"]).stdout.contains("inconclusive: replay not followed or cut short"))
    }

    // MARK: Another build

    @Test func eachBuildPrintsItsOwnVerdictBesideTheRecordedOne() throws {
        let directory = try makeTemporaryDirectory("other-build")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordLedgerFailure(in: directory)
        let header = try TraceReader(path: trace).header
        #expect(header.build.hasPrefix("build-id:") || header.build.hasPrefix("uuid:"), "\(header.build)")

        let same = try Self.run("ledger-recorded", ["replay", trace], in: directory)
        #expect(same.status == 0 && same.stdout.contains("identical"), "\(same.stdout)\(same.stderr)")

        let fixed = try Self.run("ledger-fixed", ["replay", trace], in: directory)
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("on this build: passes with every non-fifo decision followed (recorded: FAIL"))
        #expect(fixed.stdout.contains("recorded by build \(header.build), replayed on build "))
        #expect(!fixed.stdout.contains("replayed on build \(header.build)"))
        #expect(fixed.stdout.contains("the schedule was followed by identity"))

        let moved = try Self.run("ledger-moved", ["replay", trace], in: directory)
        #expect(moved.status == 2, "\(moved.stdout)\(moved.stderr)")
        #expect(moved.stdout.contains("on this build: inconclusive"))
        #expect(moved.stdout.contains("could not be followed on this build"))
        #expect(moved.stdout.contains("payout/read#1"))

        let asserting = try Self.run("ledger-asserting", ["replay", trace], in: directory)
        #expect(asserting.status == 1, "\(asserting.stdout)\(asserting.stderr)")
        #expect(asserting.stdout.contains("on this build: still fails — CRASHED at event"), "\(asserting.stdout)")
        #expect(asserting.stdout.contains("negative balance -5"), "\(asserting.stdout)")

        // --json carries both builds and what could not be followed.
        let document = try Self.document(try Self.run("ledger-moved", ["replay", trace, "--json"], in: directory))
        #expect(document["verdict"]?.stringValue == "inconclusive" && document["exitCode"]?.intValue == 2)
        #expect(document["recordedBuild"]?.stringValue == header.build)
        #expect(document["otherBuild"]?.boolValue == true)
        #expect((document["unfollowed"]?.arrayValue?.count ?? 0) >= 1)
        let fixedDocument = try Self.document(try Self.run("ledger-fixed", ["replay", trace, "--json"], in: directory))
        #expect(fixedDocument["verdict"]?.stringValue == "pass")
        #expect(fixedDocument["otherBuild"]?.boolValue == true)
        #expect(fixedDocument["exitCode"]?.intValue == 0)
    }

    @Test func aBuildLabelNamesTheBuild() throws {
        let directory = try makeTemporaryDirectory("other-build-label")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordLedgerFailure(in: directory, label: "v1")
        #expect(try TraceReader(path: trace).header.build == "label:v1")
        let exported = try Self.run("ledger-recorded", ["export", trace, "--format", "jsonl"], in: directory)
        #expect(exported.stdout.contains(#""build":"label:v1""#))

        // The same executable under another label is another build: identical events, the recorded
        // failure is this build's too.
        let relabelled = try Self.run("ledger-recorded", ["replay", trace, "--build-label", "v2"], in: directory)
        #expect(relabelled.status == 1, "\(relabelled.stdout)\(relabelled.stderr)")
        #expect(relabelled.stdout.contains("on this build: still fails — FAIL"))
        #expect(
            relabelled.stdout.contains(
                "recorded by build label:v1, replayed on build label:v2; the events are identical"))
        // A label given in the environment reaches the same answer.
        let fromEnvironment = try Self.run(
            "ledger-recorded", ["replay", trace], in: directory, environment: ["SIMRUN_BUILD_LABEL": "v1"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stdout)\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdout.contains("identical"))
    }

    // MARK: --bisect

    @Test func bisectCodesAreGitBisectRunCodes() throws {
        let directory = try makeTemporaryDirectory("other-build-bisect")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordLedgerFailure(in: directory)
        let cases: [(String, Int32)] = [
            ("ledger-recorded", 1), ("ledger-fixed", 0), ("ledger-moved", 125), ("ledger-asserting", 1),
        ]
        for (build, code) in cases {
            let output = try Self.run(build, ["replay", "--bisect", trace], in: directory)
            #expect(output.status == code, "\(build): \(output.stdout)\(output.stderr)")
        }
        // A trace that cannot be replayed stops the bisection (above 127), never "bad".
        let missing = try Self.run("ledger-fixed", ["replay", "--bisect", "no-such.simtrace"], in: directory)
        #expect(missing.status == 128, "\(missing.stderr)")
        let plain = try Self.run("ledger-fixed", ["replay", "no-such.simtrace"], in: directory)
        #expect(plain.status != 128 && plain.status != 0)
    }

    @Test func usageAndInputErrorsUnderBisectStopTheBisection() throws {
        let directory = try makeTemporaryDirectory("bisect-codes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordLedgerFailure(in: directory)
        let cases: [[String]] = [
            ["replay", "--bisect", trace, "--noise", "-1"],
            ["replay", "--bisect", trace, "--noise", "1000000"],
            ["replay", "--bisect", trace, "--no-such-option"],
            ["replay", "--bisect", trace, "--variant", "no-such-variant"],
            ["replay", "--bisect"],
            ["replay", "--bisect", directory.appendingPathComponent("missing.simtrace").path],
        ]
        for arguments in cases {
            let output = try Self.run("ledger-fixed", arguments, in: directory)
            #expect(output.status == 128, "\(arguments): \(output.status) \(output.stderr)")
            #expect(!output.stderr.isEmpty, "\(arguments): the reason is printed")
            let json = try Self.run("ledger-fixed", arguments + ["--json"], in: directory)
            let document = try Self.document(json)
            #expect(json.status == 128 && document["exitCode"]?.intValue == 128, "\(arguments): \(json.stdout)")
        }
        // Without --bisect the same mistakes keep their documented codes.
        #expect(try Self.run("ledger-fixed", ["replay", trace, "--noise", "-1"], in: directory).status == 64)
    }

    @Test(.enabled(if: TestPlatform.isLinux, "a character device that fails every write (mknod) is made on Linux only"))
    func aStdoutWriteErrorUnderBisectStopsTheBisection() throws {
        let directory = try makeTemporaryDirectory("bisect-stdout")
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = try #require(OutputTargetTests.device("fakefull", minor: 7, in: directory), "mknod /dev/full's twin")
        let trace = try Self.recordLedgerFailure(in: directory)
        for build in ["ledger-recorded", "ledger-fixed"] {
            let (status, text) = try OutputTargetTests.run(
                ["replay", "--bisect", trace], in: directory, stdout: full, executable: Self.executable(build))
            #expect(status == 128, "\(build): \(text)")
            #expect(text.contains("cannot write to stdout"), "\(text)")
        }
    }

    /// Runs `git <arguments>` in `directory` with no user or system configuration, as a fixed author.
    @discardableResult
    static func git(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let environment = [
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": directory.path,
            "GIT_AUTHOR_NAME": "simrun", "GIT_AUTHOR_EMAIL": "simrun@example.invalid",
            "GIT_COMMITTER_NAME": "simrun", "GIT_COMMITTER_EMAIL": "simrun@example.invalid",
            "GIT_AUTHOR_DATE": "2026-11-28T00:00:00Z", "GIT_COMMITTER_DATE": "2026-11-28T00:00:00Z",
        ]
        let git = try SimrunProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"), ["git"] + arguments, in: directory,
            environment: environment)
        return (git.status, git.stdout + git.stderr)
    }

    /// `replay --bisect` under a real `git bisect run` (issue #43), as ReplayingOnAnotherBuild.md's
    /// recipe runs it: a repository of one commit per build (each commit's file `build` names the
    /// executable it builds: recorded, asserting — another build that still has the bug, trapping —
    /// then fixed twice) bisected for the first commit that fixes the recorded bug. The verdict of
    /// each build on model, async and crash traces is OtherBuildReplayTests' (SimEngineTests).
    @Test func gitBisectRunFindsTheFirstFixedCommit() throws {
        let directory = try makeTemporaryDirectory("bisect-model")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordLedgerFailure(in: directory)
        let builds = ["ledger-recorded", "ledger-asserting", "ledger-fixed", "ledger-fixed"]
        let repository = directory.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        #expect(try Self.git(["init", "-q", "-b", "main"], in: repository).status == 0, "git is needed by this test")
        var commits: [String] = []
        for (index, build) in builds.enumerated() {
            try Data(build.utf8).write(to: repository.appendingPathComponent("build"))
            try Self.git(["add", "build"], in: repository)
            let commit = try Self.git(
                ["commit", "-q", "--allow-empty", "-m", "commit \(index + 1): \(build)"], in: repository)
            #expect(commit.status == 0, "\(commit.output)")
            commits.append(
                try Self.git(["rev-parse", "HEAD"], in: repository).output.trimmingCharacters(
                    in: .whitespacesAndNewlines))
        }
        // The recipe for the commit that fixed a bug: terms the other way round, 0 and 1 swapped,
        // every other code passed on (125 skips, 128 stops).
        let script = directory.appendingPathComponent("check.sh")
        let bin = SimrunProcess.executable.deletingLastPathComponent().path
        try Data(
            """
            #!/bin/sh
            "\(bin)/$(cat build)" replay --bisect '\(trace)'
            code=$?; case $code in 0) exit 1;; 1) exit 0;; *) exit $code;; esac

            """.utf8
        ).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let start = try Self.git(
            ["bisect", "start", "--term-old=broken", "--term-new=fixed", commits[commits.count - 1], commits[0]],
            in: repository)
        #expect(start.status == 0, "\(start.output)")
        let run = try Self.git(["bisect", "run", script.path], in: repository)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("\(commits[2]) is the first fixed commit"), "\(run.output)")
    }

    // MARK: A trace from a pipe

    @Test func aTraceFromAPipeReplaysAndExplainsLikeAFile() throws {
        let directory = try makeTemporaryDirectory("pipe-in")
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        for arguments in [["replay", "/dev/stdin"], ["explain", "/dev/stdin", "--runs", "3"]] {
            let input = Pipe()
            let output = Pipe()
            let process = try SimrunProcess.start(
                arguments, in: directory, environment: ["TMPDIR": directory.path], stdin: input, stdout: output,
                stderr: output)
            input.fileHandleForWriting.write(bytes)
            try input.fileHandleForWriting.close()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(arguments): \(text)")
            #expect(!text.contains("file is empty"), "\(text)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["lost.simtrace"], "the temporary copy is removed: \(left)")
    }

    // MARK: Truncated, crashing and damaged traces

    /// A crash trace cut short: exit 2 with the truncation line, the replay's crash past the cut
    /// shown (the verdict itself: SimEngineTests' `TraceReplayInChildTests`).
    @Test func aTruncatedCrashTraceSaysInconclusiveAndExits2() throws {
        let directory = try makeTemporaryDirectory("replay-cut")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try CommittedTraces.cut(CommittedTraces.blueprintCrash, 1000, to: directory, "t.simtrace")
        let replay = try SimrunProcess.run(["replay", cut])
        #expect(replay.status == 2, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("inconclusive — identical up to the truncation point"), "\(replay.stdout)")
        #expect(replay.stdout.contains("CRASHED"), "the replay crashed past the cut: \(replay.stdout)")
        let json = try SimrunProcess.run(["replay", cut, "--json"])
        #expect(json.status == 2)
        #expect(json.stdout.contains("\"verdict\":\"inconclusive\""), "\(json.stdout)")
    }

    /// A crash that happens again under other noise: exit 1, the line says where and why.
    @Test func aCrashUnderOtherNoiseSaysCrashedAndExits1() throws {
        let text = try SimrunProcess.run(["replay", CommittedTraces.blueprintCrash, "--noise", "2"])
        #expect(text.status == 1, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("with 2 noise lanes: CRASHED at event"), "\(text.stdout)")
        #expect(text.stdout.contains("Reentrant updates are not supported"), "\(text.stdout)")
        let json = try SimrunProcess.run(["replay", CommittedTraces.blueprintCrash, "--noise", "2", "--json"])
        #expect(json.status == 1, "\(json.stdout)\(json.stderr)")
        #expect(json.stdout.contains("\"verdict\":\"crashed\""), "\(json.stdout)")
    }

    /// A truncated trace on the fix: exit 2 with the reason, never a pass.
    @Test func aTruncatedTraceOnTheFixSaysWhyItIsInconclusive() throws {
        let directory = try makeTemporaryDirectory("replay-cut")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try CommittedTraces.cut(CommittedTraces.lostInput, 200, to: directory, "g.simtrace")
        let fixed = try SimrunProcess.run(["replay", cut, "--variant", "fixed"])
        #expect(fixed.status == 2, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("inconclusive: the trace is truncated"), "\(fixed.stdout)")
    }

    /// Damaged variants of every committed trace (cut short, bytes flipped), replayed by the command
    /// and through SimTesting's `TraceCorpus`: both give the engine's verdict and the same exit code,
    /// none exits 0, none dies of a signal. A deterministic sample here; `tools/damaged-replays.sh`
    /// runs 1,000 (SIMRUN_DAMAGED_COUNT).
    @Test func theCommandAndSimTestingAgreeOnDamagedTraces() throws {
        let exitCodes: Set<Int32> = [0, 1, 2, 64, 65, 66, 73, 130]
        let count = ProcessInfo.processInfo.environment["SIMRUN_DAMAGED_COUNT"].flatMap(Int.init) ?? 24
        let directory = try makeTemporaryDirectory("damaged-agree")
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = try FileManager.default.contentsOfDirectory(atPath: CommittedTraces.directory)
            .filter { $0.hasSuffix(".simtrace") }.sorted()
        let sources = try names.map {
            try [UInt8](Data(contentsOf: URL(fileURLWithPath: CommittedTraces.directory + "/" + $0)))
        }
        var rng = SplitMix64(seed: 22)
        var tally: [String: Int] = [:]
        for index in 0..<count {
            let source = index % sources.count
            var bytes = sources[source]
            let kind: String
            if index % 2 == 0 {
                kind = "cut"
                bytes = Array(bytes.prefix(1 + rng.below(bytes.count - 1)))
            } else {
                kind = "flip"
                for _ in 0..<(1 + rng.below(3)) { bytes[rng.below(bytes.count)] ^= UInt8(1 + rng.below(255)) }
            }
            let name = "\(index)-\(kind)-\(names[source])"
            let path = directory.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let cli = try SimrunProcess.run(["replay", path, "--json"], timeout: 60)
            #expect(exitCodes.contains(cli.status), "\(name): died (\(cli.status)): \(cli.stderr)")
            #expect(cli.status != 0, "\(name): a damaged trace exited 0: \(cli.stdout)")
            let corpus = TraceCorpus(
                directory: directory.path, scenarios: BuiltinScenarios.all, executable: SimrunProcess.executable.path)
            let trace = try #require(corpus.traces.first { $0.name == name })
            let verdict: String
            let status: Int32
            do throws(SimEngineError) {
                let report = try corpus.verdict(of: trace)
                verdict = report.verdict.name
                status = ReplayCommand.status(of: report.verdict)
            } catch {
                verdict = "error"
                status = error.code
            }
            #expect(cli.status == status, "\(name): CLI exit \(cli.status), SimTesting \(status) (\(verdict))")
            let document = try? JSONValue(parsing: cli.stdout.split(separator: "\n").last.map(String.init) ?? "")
            let cliVerdict = document?["verdict"]?.stringValue ?? "error"
            // A damaged file is an error document in the CLI (65, one line), `damaged` in the engine.
            #expect(
                cliVerdict == verdict || (verdict == "damaged" && cliVerdict == "error"),
                "\(name): CLI \(cliVerdict), SimTesting \(verdict)")
            tally["\(kind) \(verdict) \(status)", default: 0] += 1
        }
        print(
            "damaged replays: \(count); " + tally.keys.sorted().map { "\($0) ×\(tally[$0]!)" }.joined(separator: ", "))
    }
}
