import Foundation
import SimEngine
import SimTestSupport
import Testing

/// `replay --bisect` as `git bisect run` reads it (issue #43): a real bisection over a small git
/// repository of commits finds the first fixed one for a model trace, an async trace and a crash
/// trace, and every way the command can fail before or after its verdict stops the bisection
/// (128 or above) instead of reading as "bad" (1 to 127, but 125).
///
/// The commits do not rebuild anything: each selects one of the `ledger-*` executables of this
/// package (Tests/BuildFixtures), which are the builds of a user's code at four commits. The
/// bisection's script runs the selected build's `replay --bisect`, as the recipe in
/// ReplayingOnAnotherBuild.md runs `swift build` and the freshly built executable.
@Suite struct BisectTests {
    static func executable(_ name: String) -> String {
        SimrunProcess.executable.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Runs `git <arguments>` in `directory` with no user or system configuration, as a fixed author.
    @discardableResult
    static func git(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in [
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": directory.path,
            "GIT_AUTHOR_NAME": "simrun", "GIT_AUTHOR_EMAIL": "simrun@example.invalid",
            "GIT_COMMITTER_NAME": "simrun", "GIT_COMMITTER_EMAIL": "simrun@example.invalid",
            "GIT_AUTHOR_DATE": "2026-11-28T00:00:00Z", "GIT_COMMITTER_DATE": "2026-11-28T00:00:00Z",
        ] {
            environment[key] = value
        }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A repository of one commit per build in `builds` (each commit's file `build` names the
    /// executable that commit builds) and a bisection of it for the first commit that fixes the bug
    /// `trace` records; returns the commits and what `git bisect run` printed.
    static func bisect(_ trace: String, builds: [String], in directory: URL) throws -> (commits: [String], log: String)
    {
        let repository = directory.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        #expect(try git(["init", "-q", "-b", "main"], in: repository).status == 0, "git is needed by this test")
        var commits: [String] = []
        for (index, build) in builds.enumerated() {
            try Data(build.utf8).write(to: repository.appendingPathComponent("build"))
            try git(["add", "build"], in: repository)
            let commit = try git(
                ["commit", "-q", "--allow-empty", "-m", "commit \(index + 1): \(build)"], in: repository)
            #expect(commit.status == 0, "\(commit.output)")
            commits.append(
                try git(["rev-parse", "HEAD"], in: repository).output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // ReplayingOnAnotherBuild.md's recipe for the commit that fixed a bug: terms the other way
        // round, 0 and 1 swapped, every other code passed on (125 skips, 128 stops).
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
        let start = try git(
            ["bisect", "start", "--term-old=broken", "--term-new=fixed", commits[commits.count - 1], commits[0]],
            in: repository)
        #expect(start.status == 0, "\(start.output)")
        let run = try git(["bisect", "run", script.path], in: repository)
        #expect(run.status == 0, "\(run.output)")
        return (commits, run.output)
    }

    /// `name run <arguments>` with random seeds from 0 until a run exits 1 (its trace kept at
    /// `path`) and `accept` takes the trace.
    static func record(
        with name: String, _ arguments: [String], to path: String, in directory: URL,
        accept: (String) throws -> Bool = { _ in true }
    ) throws -> String {
        for seed in 0..<64 {
            let output = try SimrunProcess.run(
                executable: URL(fileURLWithPath: executable(name)),
                ["run"] + arguments + ["--strategy", "random", "--seed", String(seed), "--out", path], in: directory)
            if output.status == 1, try accept(path) { return path }
        }
        Issue.record("no random seed of \(arguments) in 0..<64 gave the trace wanted")
        return path
    }

    @Test func gitBisectRunFindsTheFirstFixedCommitForAModelTrace() throws {
        let directory = try makeTemporaryDirectory("bisect-model")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.record(
            with: "ledger-recorded", ["ledger"], to: directory.appendingPathComponent("ledger.simtrace").path,
            in: directory)
        // Commit 2 is another build that still has the bug (it traps on it): bad too.
        let (commits, log) = try Self.bisect(
            trace, builds: ["ledger-recorded", "ledger-asserting", "ledger-fixed", "ledger-fixed"], in: directory)
        #expect(log.contains("\(commits[2]) is the first fixed commit"), "\(log)")
    }

    @Test func gitBisectRunFindsTheFirstFixedCommitForAnAsyncTraceWhoseFixCancelsTheOlderTask() throws {
        let directory = try makeTemporaryDirectory("bisect-async")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A shrunk trace, as `fuzz` saves it: the newer search's wake-up ahead of the older one's.
        let found = try SimrunProcess.run(
            executable: URL(fileURLWithPath: Self.executable("ledger-recorded")),
            ["fuzz", "search", "--no-show", "--out", "found"], in: directory)
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("found").path)
                .first { $0.hasSuffix(".simtrace") })
        let trace = directory.appendingPathComponent("found").appendingPathComponent(name).path
        // The fixed build cancels the older search: the recorded race cannot happen there, and the
        // campaign run on it instead passes (0, "fixed"); the moved build still has the bug.
        let fixed = try SimrunProcess.run(
            executable: URL(fileURLWithPath: Self.executable("ledger-fixed")), ["replay", "--bisect", trace],
            in: directory)
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("race removed: the fix removes the recorded race"), "\(fixed.stdout)")
        let (commits, log) = try Self.bisect(
            trace, builds: ["ledger-recorded", "ledger-moved", "ledger-fixed", "ledger-fixed"], in: directory)
        #expect(log.contains("\(commits[2]) is the first fixed commit"), "\(log)")
    }

    @Test func gitBisectRunFindsTheFirstFixedCommitForACrashTrace() throws {
        let directory = try makeTemporaryDirectory("bisect-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A crash whose last picks went ahead of the deposit, which never ran: the trace does not
        // name it, and the fixed build must still follow the recorded schedule.
        let trace = try Self.record(
            with: "ledger-asserting", ["ledger"], to: directory.appendingPathComponent("crash.simtrace").path,
            in: directory
        ) { path in
            let shown = try SimrunProcess.run(
                executable: URL(fileURLWithPath: Self.executable("ledger-asserting")), ["show", path], in: directory)
            return shown.stdout.contains("CRASHED") || shown.stdout.contains("crashed")
                ? !shown.stdout.contains("deposit#1") : false
        }
        let fixed = try SimrunProcess.run(
            executable: URL(fileURLWithPath: Self.executable("ledger-fixed")), ["replay", trace], in: directory)
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("passes with every non-fifo decision followed"), "\(fixed.stdout)")
        #expect(fixed.stdout.contains("followed 2 of 2 decisions (all 2 non-fifo)"), "\(fixed.stdout)")
        #expect(!fixed.stdout.contains("never ready together with \n"), "\(fixed.stdout)")
        let (commits, log) = try Self.bisect(
            trace, builds: ["ledger-asserting", "ledger-asserting", "ledger-fixed", "ledger-fixed"], in: directory)
        #expect(log.contains("\(commits[2]) is the first fixed commit"), "\(log)")
    }

    // MARK: Every way to fail stops the bisection

    @Test func usageAndInputErrorsUnderBisectStopTheBisection() throws {
        let directory = try makeTemporaryDirectory("bisect-codes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        let cases: [[String]] = [
            ["replay", "--bisect", trace, "--noise", "-1"],
            ["replay", "--bisect", trace, "--noise", "1000000"],
            ["replay", "--bisect", trace, "--no-such-option"],
            ["replay", "--bisect", trace, "--variant", "no-such-variant"],
            ["replay", "--bisect"],
            ["replay", "--bisect", directory.appendingPathComponent("missing.simtrace").path],
        ]
        for arguments in cases {
            let output = try SimrunProcess.run(arguments, in: directory)
            #expect(output.status == 128, "\(arguments): \(output.status) \(output.stderr)")
            #expect(!output.stderr.isEmpty, "\(arguments): the reason is printed")
            let json = try SimrunProcess.run(arguments + ["--json"], in: directory)
            let document = try JSONValue(parsing: json.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(json.status == 128 && document["exitCode"]?.intValue == 128, "\(arguments): \(json.stdout)")
        }
        // Without --bisect the same mistakes keep their documented codes.
        #expect(try SimrunProcess.run(["replay", trace, "--noise", "-1"], in: directory).status == 64)
    }

    @Test func aStdoutWriteErrorUnderBisectStopsTheBisection() throws {
        let directory = try makeTemporaryDirectory("bisect-stdout")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let full = OutputTargetTests.device("fakefull", minor: 7, in: directory) else { return }
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        for variant in ["buggy", "fixed"] {
            let (status, errors) = try OutputTargetTests.run(
                ["replay", "--bisect", trace, "--variant", variant], in: directory, stdout: full)
            #expect(status == 128, "\(variant): \(errors)")
            #expect(errors.contains("cannot write to stdout"), "\(errors)")
        }
    }
}
