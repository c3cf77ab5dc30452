import Foundation
import SimTestSupport
import SimTrace
import Testing

/// What `simrun fuzz` prints about the findings the engine's campaign handled, and how the command
/// ends, as users run it: a crash with where it trapped, nondeterminism with both processes' verdicts,
/// a job that never returns (its bound set by the environment), a trace saved nowhere, a crash that
/// shrank to another message, an interrupted campaign. The findings themselves: SimEngineTests'
/// `FindingCampaignCrashTests` and `FindingCampaignNondeterminismTests`.
@Suite(.serialized) struct FuzzFindingsCommandTests {
    @Test func aCrashIsReportedWithWhereItTrappedAndReplaysAsTheCrash() throws {
        let directory = try makeTemporaryDirectory("crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            [
                "fuzz", "unruly-counter", "--variant", "crashing", "--seeds", "0..<60", "--keep-going", "--no-show",
                "--no-shrink", "--out", "out",
            ], in: directory)
        #expect(fuzz.status == 1, "\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("FAIL at seed"), "the ordinary failure is still reported: \(fuzz.stdout)")
        #expect(fuzz.stdout.contains("CRASH at seed"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("crashed at event"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("Precondition failed: stale write"), "\(fuzz.stdout)")
        // What a release build's report still says when the runtime keeps no message: the job and
        // the last events before the trap.
        #expect(fuzz.stdout.contains("  in job worker.a/write#1; the last events before the trap:"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("counter.read worker."), "the events before the trap: \(fuzz.stdout)")
        #expect(fuzz.stdout.contains("summary: 60 schedules"), "every seed ran: \(fuzz.stdout)")
        let trace = "out/unruly-counter-crashing-crashed.simtrace"
        let events = try TraceFile.load(path: directory.appendingPathComponent(trace).path).events.count
        let replay = try SimrunProcess.run(["replay", trace], in: directory)
        #expect(replay.status == 0, "\(replay.stdout) \(replay.stderr)")
        #expect(replay.stdout.contains("identical — crashed at event \(events)"), "\(replay.stdout)")
        let show = try SimrunProcess.run(["show", trace], in: directory)
        #expect(show.status == 0 && show.stdout.contains("crashed: Precondition failed"), "\(show.stdout)")
        let shrink = try SimrunProcess.run(["shrink", trace, "-o", "shrunk.simtrace"], in: directory)
        #expect(shrink.status == 0, "\(shrink.stdout)\(shrink.stderr)")
        #expect(shrink.stdout.contains("same failure: crashed: Precondition failed: stale write"), "\(shrink.stdout)")
    }

    @Test func nondeterminismNamesBothProcessesAndWhereTheyPart() throws {
        let directory = try makeTemporaryDirectory("nondet")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            ["fuzz", "unruly-counter", "--variant", "wall-clock", "--seeds", "0..<20", "--no-show", "--out", "out"],
            in: directory)
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("NONDETERMINISTIC"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("ran differently in two processes"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("  worker process: "), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("  re-run here:    "), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("first divergent event: #"), "\(fuzz.stdout)")
    }

    /// Nothing simrun starts hangs for ever (issue #41): a run whose job never returns is given up
    /// after a bound of real time (`SIMRUN_STALL_SECONDS`, read by every child of the command) and
    /// reported as a crash naming the stuck job, with its trace, which replays to the same end.
    @Test func aJobThatNeverReturnsIsACrashFindingNamingTheJob() throws {
        let directory = try makeTemporaryDirectory("stuck")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            ["fuzz", "unruly-counter", "--variant", "stuck", "--seeds", "0..<40", "--no-shrink", "--out", "out"],
            in: directory, timeout: 120, environment: ["SIMRUN_STALL_SECONDS": "1"])
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH at seed"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("a run made no progress for 1 s of real time"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("in job poller/check#1"), "the stuck job is named: \(fuzz.stdout)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)
        #expect(saved == ["unruly-counter-stuck-crashed.simtrace"], "\(saved)")
        let replay = try SimrunProcess.run(
            ["replay", "out/unruly-counter-stuck-crashed.simtrace"], in: directory, timeout: 120,
            environment: ["SIMRUN_STALL_SECONDS": "1"])
        #expect(replay.status == 0 && replay.stdout.contains("identical — crashed"), "\(replay.stdout)")
    }

    /// A campaign whose workers are stuck (the stall bound is a minute here) is interrupted twice: the
    /// second signal ends it at once, and no child of it is left running (seen in /proc).
    @Test(.enabled(if: TestPlatform.isLinux, "the test finds the campaign's children in /proc"))
    func anInterruptedCampaignLeavesNoChildBehind() throws {
        #if os(Linux)
            let directory = try makeTemporaryDirectory("orphans")
            defer { try? FileManager.default.removeItem(at: directory) }
            let marker = "SIMRUN_TEST_MARKER=\(UUID().uuidString)"
            let process = try SimrunProcess.start(
                ["fuzz", "unruly-counter", "--variant", "stuck", "--seeds", "0..<400", "--jobs", "2"], in: directory,
                environment: ["TMPDIR": directory.path, "SIMRUN_TEST_MARKER": String(marker.split(separator: "=")[1])])
            // Wait until the workers run, and give one time to get stuck (seed 2 is a stuck one).
            let started = Date()
            while workers(marked(marker)).isEmpty && Date().timeIntervalSince(started) < 60 { usleep(50_000) }
            #expect(!workers(marked(marker)).isEmpty, "the campaign's workers started")
            usleep(1_500_000)
            let signalled = Date()
            kill(process.processIdentifier, SIGINT)
            usleep(200_000)
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            #expect(process.terminationStatus == 130)
            // A stuck child left behind would hold the command's end until its stall bound (a minute).
            #expect(
                Date().timeIntervalSince(signalled) < 20,
                "the interrupted campaign took \(Date().timeIntervalSince(signalled)) s to end")
            var left = marked(marker)
            let ended = Date()
            while !left.isEmpty && Date().timeIntervalSince(ended) < 10 {
                usleep(50_000)
                left = marked(marker)
            }
            #expect(left.isEmpty, "processes of the campaign still running: \(left)")
        #endif
    }

    /// The fuzz workers among `processes`: started as `<program> --simrun-child work`.
    private func workers(_ processes: [Int32]) -> [Int32] {
        processes.filter { pid in
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            let arguments = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.dropFirst().starts(with: ["--simrun-child", "work"])
        }
    }

    /// The ids of live processes whose environment holds `marker`.
    private func marked(_ marker: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                !status.contains(") Z ")
            else { return false }
            return environment.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == marker }
        }
    }

    @Test func aTraceThatCouldBeSavedNowhereSaysWhy() throws {
        let directory = try makeTemporaryDirectory("unsaved-finding")
        defer { try? FileManager.default.removeItem(at: directory) }
        // --out passes the checks before the campaign (a writable directory), but every name the
        // finding could take there is a directory already (the wanted name and -2 … -1000), and a
        // missing $TMPDIR leaves no fallback: the trace is saved nowhere.
        let out = directory.appendingPathComponent("out")
        let stem = "lost-input-navigation-buggy-typed-text-kept"
        for number in 1...1000 {
            let name = number == 1 ? "\(stem).simtrace" : "\(stem)-\(number).simtrace"
            try FileManager.default.createDirectory(at: out.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let missing = directory.appendingPathComponent("missing").path
        let fuzz = try SimrunProcess.run(
            ["fuzz", "lost-input-navigation", "--seeds", "20", "--no-show", "--out", "out"], in: directory,
            environment: ["TMPDIR": missing])
        // The finding stands (exit 1), with no trace line, and the reason is said on stderr.
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        let fail = try #require(fuzz.stdout.split(separator: "\n").first { $0.hasPrefix("FAIL at seed ") }, "\(fuzz.stdout)")
        #expect(!fuzz.stdout.contains("  trace:"), "\(fuzz.stdout)")
        let seed = try #require(fail.split(separator: " ").dropFirst(3).first?.split(separator: ":").first)
        #expect(fuzz.stderr.contains("seed \(seed): "), "\(fuzz.stderr)")
        #expect(fuzz.stderr.contains("lost-input-navigation-buggy-typed-text-kept.simtrace: is a directory"), "\(fuzz.stderr)")
        #expect(fuzz.stderr.contains("nor elsewhere: TMPDIR \(missing): cannot create a directory there"), "\(fuzz.stderr)")
    }

    /// A crash that shrank to another message (numbers aside, the same crash) is reported with the
    /// saved trace's verdict and event count, not the one found (issue #45). `charged-crash` is the
    /// ledger fixture's, a user's executable built on `SimRun.main`.
    @Test func aShrunkCrashIsReportedWithItsSavedVerdict() throws {
        let directory = try makeTemporaryDirectory("charged-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            executable: OptimizedBuildCrashTests.executable(),
            ["fuzz", "charged-crash", "--strategy", "random", "--seeds", "16", "--no-show", "--out", "out"],
            in: directory, timeout: 600)
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        let lines = fuzz.stdout.split(separator: "\n").map(String.init)
        let crash = try #require(lines.first { $0.hasPrefix("CRASH at seed ") }, "\(fuzz.stdout)")
        let trace = directory.appendingPathComponent("out/charged-crash-buggy-crashed.simtrace").path
        let footer = try #require(try TraceFile.load(path: trace).footer)
        // Shrinking kept the crash (the same job and function, numbers aside) with fifo's charge.
        #expect(footer.verdict.message.hasSuffix("fired before armed with charge 0"), "\(footer.verdict)")
        #expect(lines.contains { $0.hasPrefix("  shrunk") }, "\(fuzz.stdout)")
        // The case this test is for: the crash found drew another charge than the saved one.
        #expect(!crash.hasSuffix("charge 0"), "seeds 0..<16 found only fifo's charge: pick others\n\(fuzz.stdout)")
        let crashed = try #require(lines.first { $0.hasPrefix("  crashed at event ") }, "\(fuzz.stdout)")
        #expect(crashed.hasPrefix("  crashed at event \(footer.eventCount) "), "\(crashed) vs \(footer.eventCount)")
        #expect(crashed.hasSuffix(": \(footer.verdict.message)"), "\(crashed) vs \(footer.verdict.message)")
    }
}
