import Foundation
import SimTestSupport
import Testing

/// Contracts hold when interrupted (#44, N10, N12, N14): `--json` always prints its document, marked
/// partial, whenever the signal lands; nothing is left in `$TMPDIR` by an interrupted command or by
/// the children it started; the message names the executable as it was run; a closed terminal
/// (SIGHUP) and an in-order campaign stop with the summary of what ran.
@Suite(.serialized) struct InterruptedContractTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Started {
        let process: Process
        let out: Pipe
        let err: Pipe

        /// Sends `signal`, then collects everything (a process that ignores it is killed).
        func stop(with signal: Int32) -> (status: Int32, stdout: String, stderr: String) {
            kill(process.processIdentifier, signal)
            let output = SimrunProcess.collect(process, stdout: out, stderr: err, killingAfter: 120)
            return (output.status, output.stdout, output.stderr)
        }
    }

    /// Starts `executable arguments` in `directory` with `TMPDIR` there, and returns once the process
    /// catches SIGINT and SIGTERM (read from /proc, never guessed with a sleep).
    static func start(
        _ arguments: [String], in directory: URL, executable: URL = SimrunProcess.executable
    ) throws -> Started {
        let out = Pipe()
        let err = Pipe()
        let process = try SimrunProcess.start(
            arguments, executable: executable, in: directory, environment: ["TMPDIR": directory.path], stdout: out,
            stderr: err)
        if !SimrunProcess.waitUntilHandlingSignals(process) { Thread.sleep(forTimeInterval: 0.5) }
        return Started(process: process, out: out, err: err)
    }

    /// Waits until no process works in `directory` any more (the command's children, which a parent
    /// ended by a signal may leave running), as /proc tells; at most a minute.
    static func waitForChildren(of directory: URL) {
        #if os(Linux)
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
                let busy = pids.contains { pid in
                    guard Int32(pid) != nil,
                        let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")
                    else { return false }
                    return cwd == directory.path || cwd == directory.resolvingSymlinksInPath().path
                }
                if !busy { return }
                usleep(20_000)
            }
        #endif
    }

    /// What a command left in its `$TMPDIR` (the test directory), beside what the test put there.
    static func leftovers(in directory: URL, besides kept: Set<String>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !kept.contains($0) }.sorted()
    }

    /// The document on stdout: exactly one, parsed.
    static func document(_ stdout: String) -> [String: Any]? {
        let lines = stdout.split(separator: "\n")
        guard lines.count == 1 else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
    }

    /// A signal that lands as soon as the process can catch it — before the command even started
    /// (parsing, planning) — still gets the `--json` document, marked as interrupted and partial.
    @Test(arguments: [SIGINT, SIGTERM])
    func jsonIsPrintedHoweverEarlyTheSignalLands(signal: Int32) throws {
        let directory = try makeTemporaryDirectory("early-json")
        let trace = directory.appendingPathComponent("t.simtrace").path
        LostInputFixture.record(to: trace)
        for arguments in [
            ["fuzz", "lost-input-navigation", "--variant", "fixed", "--seeds", "100000000", "--json"],
            ["explain", trace, "--runs", "1000000", "--json"],
            ["bench", "--json"],
        ] {
            let started = try Self.start(arguments, in: directory)
            let (status, stdout, stderr) = started.stop(with: signal)
            #expect(status == 130, "\(arguments): \(stderr)")
            let document = try #require(Self.document(stdout), "\(arguments): one JSON document: \(stdout) \(stderr)")
            #expect(document["verdict"] as? String == "interrupted", "\(arguments): \(stdout)")
            #expect(document["exitCode"] as? Int == 130, "\(arguments): \(stdout)")
            #expect(document["partial"] as? Bool == true, "\(arguments): \(stdout)")
            #expect(document["command"] as? String == arguments[0], "\(arguments): \(stdout)")
        }
    }

    /// The same, once the work is well under way.
    @Test func jsonIsPrintedWhenTheWorkIsUnderWay() throws {
        let directory = try makeTemporaryDirectory("late-json")
        let trace = directory.appendingPathComponent("t.simtrace").path
        LostInputFixture.record(to: trace)
        for arguments in [["explain", trace, "--runs", "1000000", "--json"], ["bench", "--json"]] {
            let started = try Self.start(arguments, in: directory)
            Thread.sleep(forTimeInterval: 1)
            let (status, stdout, stderr) = started.stop(with: SIGINT)
            #expect(status == 130, "\(arguments): \(stderr)")
            let document = try #require(Self.document(stdout), "\(arguments): \(stdout) \(stderr)")
            #expect(document["verdict"] as? String == "interrupted" && document["partial"] as? Bool == true)
        }
    }

    /// Interrupted at several moments, `bench`, the shrinking of a crash and determinism checks
    /// leave nothing in `$TMPDIR`: neither their own scratch files nor what their children were
    /// writing when the signal came. The short commands are stopped within their first quarter
    /// second, where their children are recording.
    @Test func interruptedCommandsLeaveNothingInTMPDIR() throws {
        let directory = try makeTemporaryDirectory("tmpdir-clean")
        let crash = directory.appendingPathComponent("crash.simtrace")
        try FileManager.default.copyItem(
            at: Self.package.appendingPathComponent("Traces/blueprint-reentrant-update-crash-buggy-crashed.simtrace"),
            to: crash)
        let kept: Set<String> = ["crash.simtrace", "shrunk.simtrace", "simrun-failures"]
        let short = [0.0, 0.03, 0.06, 0.1, 0.15, 0.2, 0.25]
        for (arguments, delays) in [
            (["bench"], [0.3, 1.0]), (["bench", "--quick", "--only", "memory"], [0.3, 1.0]),
            (["shrink", "crash.simtrace", "-o", "shrunk.simtrace"], short),
            (["run", "nslock-lost-cancel", "--preempt", "--seed", "13", "--check-determinism"], short),
            (["run", "lost-input-navigation", "--noise", "64", "--check-determinism"], short),
            (["run", "unruly-counter", "--variant", "crashing-always"], short),
        ] {
            var statuses: [Int32] = []
            for delay in delays {
                let started = try Self.start(arguments, in: directory)
                if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                let (status, _, stderr) = started.stop(with: SIGINT)
                #expect([0, 1, 130].contains(status), "\(arguments): \(stderr)")
                statuses.append(status)
                Self.waitForChildren(of: directory)
                let left = Self.leftovers(in: directory, besides: kept)
                #expect(left.isEmpty, "\(arguments) stopped after \(delay) s left \(left)")
                for name in left { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
            }
            #expect(statuses.contains(130), "\(arguments) was stopped mid-way at least once: \(statuses)")
        }
    }

    /// The interruption line names the program as it was run (a user's own executable, a renamed copy).
    @Test func theInterruptionMessageNamesTheExecutableAsRun() throws {
        let directory = try makeTemporaryDirectory("program-name")
        let named = directory.appendingPathComponent("search-sim")
        try FileManager.default.createSymbolicLink(at: named, withDestinationURL: SimrunProcess.executable)
        let trace = directory.appendingPathComponent("t.simtrace").path
        LostInputFixture.record(to: trace)
        let started = try Self.start(["explain", trace, "--runs", "1000000"], in: directory, executable: named)
        Thread.sleep(forTimeInterval: 0.3)
        let (status, _, stderr) = started.stop(with: SIGINT)
        #expect(status == 130)
        #expect(stderr.contains("search-sim: interrupted"), "\(stderr)")
        #expect(!stderr.contains("simrun: interrupted"), "\(stderr)")
    }

    /// A closed terminal (SIGHUP) stops a campaign like Ctrl-C: the summary of what ran, exit 130.
    @Test func aClosedTerminalStopsFuzzWithTheSummary() throws {
        let directory = try makeTemporaryDirectory("sighup")
        let started = try Self.start(
            ["fuzz", "lost-input-navigation", "--variant", "fixed", "--time", "86400"], in: directory)
        Thread.sleep(forTimeInterval: 1)
        let (status, stdout, stderr) = started.stop(with: SIGHUP)
        #expect(status == 130, "\(stderr)")
        #expect(stdout.contains("summary: ") && stdout.contains("interrupted"), "\(stdout)")
    }

    /// A campaign of a strategy that learns from run to run (one child, in seed order) stops with the
    /// summary of what ran too, whenever the signal lands: while the campaign is planned, as its
    /// child starts, or once it runs.
    @Test func anInOrderCampaignStopsWithTheSummary() throws {
        let directory = try makeTemporaryDirectory("surw-interrupt")
        for delay in [0.0, 0.1, 0.3, 0.6, 2.0] {
            let started = try Self.start(
                ["fuzz", "counter-race", "--variant", "fixed", "--strategy", "surw", "--time", "86400"], in: directory)
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            let (status, stdout, stderr) = started.stop(with: SIGINT)
            #expect(status == 130, "after \(delay) s: \(stderr)")
            #expect(stdout.contains("summary: ") && stdout.contains("interrupted"), "after \(delay) s: \(stdout) \(stderr)")
            #expect(!stderr.contains("stopped before it reported"), "after \(delay) s: \(stderr)")
        }
    }
}
