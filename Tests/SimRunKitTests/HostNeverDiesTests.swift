import Foundation
import SimCore
import SimEngine
import SimScenarios
import SimTestSupport
import SimTesting
import SimTrace
import Testing

@testable import SimRunKit

/// The committed traces' directory.
private let tracesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Traces").path
private let crashTrace = tracesDirectory + "/blueprint-reentrant-update-crash-buggy-crashed.simtrace"
private let lostInput = tracesDirectory + "/lost-input-navigation-buggy-typed-text-kept.simtrace"

/// The first `count` bytes of `path`, written to `name` in `directory`.
private func cut(_ path: String, _ count: Int, to directory: URL, _ name: String) throws -> String {
    let target = directory.appendingPathComponent(name).path
    try Data(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(count)).write(to: URL(fileURLWithPath: target))
    return target
}

/// Exit codes a command may end with; anything else (a signal: Foundation reports its number) is a death.
private let exitCodes: Set<Int32> = [0, 1, 2, 64, 65, 66, 73, 130]

/// No input makes simrun die of a signal: a model that traps in `replay`, `run`, `explain` or an
/// in-order `fuzz` is a finding (exit 1) or a clear refusal, through the binary as users run it.
@Suite struct HostNeverDiesTests {
    @Test func aTruncatedCrashTraceIsInconclusiveNotASignal() throws {
        let directory = try makeTemporaryDirectory("host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cutTrace = try cut(crashTrace, 1000, to: directory, "t.simtrace")
        let replay = try SimrunProcess.run(["replay", cutTrace])
        #expect(replay.status == 2, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("inconclusive — identical up to the truncation point"), "\(replay.stdout)")
        #expect(replay.stdout.contains("CRASHED"), "the replay crashed past the cut: \(replay.stdout)")
        let json = try SimrunProcess.run(["replay", cutTrace, "--json"])
        #expect(json.status == 2)
        #expect(json.stdout.contains("\"verdict\":\"inconclusive\""), "\(json.stdout)")
    }

    /// Under other noise the schedule is followed by identity, and the crash happens again: the
    /// replay's verdict is `crashed` (exit 1), recorded again the same way to say where.
    @Test func aCrashThatHappensAgainUnderOtherNoiseIsCrashed() throws {
        let replay = try SimrunProcess.run(["replay", crashTrace, "--noise", "2", "--json"])
        #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("\"verdict\":\"crashed\""), "\(replay.stdout)")
        let text = try SimrunProcess.run(["replay", crashTrace, "--noise", "2"])
        #expect(text.stdout.contains("with 2 noise lanes: CRASHED at event"), "\(text.stdout)")
        #expect(text.stdout.contains("Reentrant updates are not supported"), "\(text.stdout)")
    }

    @Test func aTruncatedTraceNeverPassesOnTheFix() throws {
        let directory = try makeTemporaryDirectory("host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixed = try SimrunProcess.run([
            "replay", try cut(lostInput, 200, to: directory, "g.simtrace"), "--variant", "fixed",
        ])
        #expect(fixed.status == 2, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("inconclusive: the trace is truncated"), "\(fixed.stdout)")
        let same = try SimrunProcess.run(["replay", try cut(lostInput, 824, to: directory, "u.simtrace")])
        #expect(same.status == 2, "\(same.stdout)\(same.stderr)")
    }

    @Test func explainExplainsACrashAndRefusesATruncatedTraceClearly() throws {
        let directory = try makeTemporaryDirectory("host")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Every re-fuzzed run of a crash trace is a child of its own: the traps end only those.
        let crash = try SimrunProcess.run(["explain", crashTrace, "--runs", "4"])
        #expect(crash.status == 0, "\(crash.stdout)\(crash.stderr)")
        #expect(crash.stdout.contains("re-fuzzes the rest 4 times"), "\(crash.stdout)")
        #expect(crash.stdout.contains("keyboard/keyboard.frame#1"), "\(crash.stdout)")
        #expect(crash.stdout.contains("100.0%  ◀ certain from here"), "\(crash.stdout)")
        #expect(crash.stdout.contains("The race: not looked for"), "\(crash.stdout)")
        let json = try SimrunProcess.run(["explain", crashTrace, "--runs", "2", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#""runs":2"#), "\(json.stdout)")
        let truncated = try SimrunProcess.run(["explain", try cut(lostInput, 600, to: directory, "t.simtrace")])
        #expect(truncated.status == 65, "\(truncated.stderr)")
        #expect(truncated.stderr.contains("the trace is truncated"), "\(truncated.stderr)")
    }

    @Test func aRunThatTrapsIsACrashFindingWithItsTrace() throws {
        let directory = try makeTemporaryDirectory("host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("u7.simtrace").path
        let run = try SimrunProcess.run([
            "run", "unruly-counter", "--variant", "crashing", "--seed", "7", "--strategy", "random", "--out", trace,
        ])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("CRASH — crashed at event 7"), "\(run.stdout)")
        let replay = try SimrunProcess.run(["replay", trace])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("identical — crashed at event 7"), "\(replay.stdout)")
    }

    @Test func explainWhoseRefuzzedRunsTrapReportsTheCrash() throws {
        let directory = try makeTemporaryDirectory("host")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Seed 5 fails without trapping (worker.b's stale write); re-fuzzing its schedule traps on others.
        let trace = directory.appendingPathComponent("u5.simtrace").path
        let run = try SimrunProcess.run([
            "run", "unruly-counter", "--variant", "crashing", "--seed", "5", "--strategy", "random", "--out", trace,
        ])
        #expect(run.status == 1 && !run.stdout.contains("CRASH"), "\(run.stdout)")
        let explain = try SimrunProcess.run(["explain", trace, "--runs", "50"])
        #expect(explain.status == 1, "\(explain.stdout)\(explain.stderr)")
        #expect(explain.stdout.contains("CRASH: a run of this explain trapped"), "\(explain.stdout)")
    }

    @Test(arguments: ["surw", "coverage", "dfs:preemptions=3"])
    func anInOrderCampaignThatTrapsEndsWithTheCrashAndItsTrace(_ strategy: String) throws {
        let directory = try makeTemporaryDirectory("host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("c").path
        let fuzz = try SimrunProcess.run([
            "fuzz", "blueprint-reentrant-update-crash", "--strategy", strategy, "--seeds", "200", "--out", out,
        ])
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH at seed"), "\(fuzz.stdout)")
        let trace = out + "/blueprint-reentrant-update-crash-buggy-crashed.simtrace"
        let replay = try SimrunProcess.run(["replay", trace])
        #expect(replay.status == 0 && replay.stdout.contains("identical — crashed at event"), "\(replay.stdout)")
    }

    /// A model that traps on the fifo schedule, the run every campaign is planned from: the crash is
    /// the campaign's finding (exit 1), its trace saved and replaying as the same crash, whatever the
    /// strategy, in text and in `--json`.
    @Test(arguments: ["pct", "surw", "dfs"])
    func aModelThatTrapsOnTheFifoScheduleIsACrashFinding(_ strategy: String) throws {
        let directory = try makeTemporaryDirectory("host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("f").path
        let fuzz = try SimrunProcess.run([
            "fuzz", "unruly-counter", "--variant", "crashing-always", "--strategy", strategy, "--seeds", "20",
            "--out", out,
        ])
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH on the fifo schedule (seed 0)"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("worker.a always traps"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("in job worker.a/write#1"), "\(fuzz.stdout)")
        let trace = out + "/unruly-counter-crashing-always-crashed.simtrace"
        #expect(fuzz.stdout.contains("trace:  \(trace)"), "\(fuzz.stdout)")
        let replay = try SimrunProcess.run(["replay", trace])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("identical — crashed at event 5"), "\(replay.stdout)")
        let jsonOut = directory.appendingPathComponent("j").path
        let json = try SimrunProcess.run([
            "fuzz", "unruly-counter", "--variant", "crashing-always", "--strategy", strategy, "--seeds", "20",
            "--out", jsonOut, "--json",
        ])
        #expect(json.status == 1, "\(json.stdout)\(json.stderr)")
        let document = try JSONValue(parsing: json.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(document["verdict"]?.stringValue == "fail", "\(json.stdout)")
        #expect(json.stdout.contains("\"oracle\":\"crashed\""), "\(json.stdout)")
        #expect(FileManager.default.fileExists(atPath: jsonOut + "/unruly-counter-crashing-always-crashed.simtrace"))
    }

    /// `run` of a model that traps on the fifo schedule (which plans `pct`'s step estimate) is a
    /// CRASH with its trace, for a strategy that needs the estimate and one that does not.
    @Test(arguments: ["pct", "random"])
    func aRunOfAModelThatTrapsOnTheFifoScheduleIsACrash(_ strategy: String) throws {
        let directory = try makeTemporaryDirectory("host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("r.simtrace").path
        let run = try SimrunProcess.run([
            "run", "unruly-counter", "--variant", "crashing-always", "--seed", "3", "--strategy", strategy, "--out",
            trace,
        ])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("CRASH — crashed at event"), "\(run.stdout)")
        let replay = try SimrunProcess.run(["replay", trace])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("identical — crashed at event"), "\(replay.stdout)")
    }

    /// A crash trace shrinks, each candidate schedule in a child: the committed Blueprint crash and
    /// an unruly-counter crash under noise (whose noise departures go back to fifo) both replay as
    /// the same crash, in the same job; fuzz shrinks its crash findings the same way.
    @Test func aCrashTraceShrinksAndReplaysAsTheSameCrash() throws {
        let directory = try makeTemporaryDirectory("host")
        defer { try? FileManager.default.removeItem(at: directory) }
        let blueprint = directory.appendingPathComponent("b.simtrace").path
        let shrink = try SimrunProcess.run(["shrink", crashTrace, "-o", blueprint, "--json"])
        #expect(shrink.status == 0, "\(shrink.stdout)\(shrink.stderr)")
        let document = try JSONValue(parsing: shrink.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(document["verdict"]?.stringValue == "shrunk", "\(shrink.stdout)")
        #expect(shrink.stdout.contains("\"oracle\":\"crashed\""), "\(shrink.stdout)")
        let replay = try SimrunProcess.run(["replay", blueprint])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("identical — crashed at event"), "\(replay.stdout)")
        #expect(replay.stdout.contains("Reentrant updates are not supported"), "\(replay.stdout)")
        #expect(replay.stdout.contains("in job main/view.layout#2"), "\(replay.stdout)")

        // Seed 15 of random under 3 noise lanes traps with 7 non-fifo decisions, most of them noise.
        let noisy = directory.appendingPathComponent("n.simtrace").path
        let run = try SimrunProcess.run([
            "run", "unruly-counter", "--variant", "crashing", "--noise", "3", "--seed", "15", "--strategy", "random",
            "--out", noisy,
        ])
        #expect(run.status == 1 && run.stdout.contains("CRASH"), "\(run.stdout)")
        let small = directory.appendingPathComponent("n-small.simtrace").path
        let shrunk = try SimrunProcess.run(["shrink", noisy, "-o", small])
        #expect(shrunk.status == 0, "\(shrunk.stdout)\(shrunk.stderr)")
        #expect(shrunk.stdout.contains("non-fifo decisions 7 → 3"), "\(shrunk.stdout)")
        let again = try SimrunProcess.run(["replay", small])
        #expect(again.status == 0 && again.stdout.contains("identical — crashed at event"), "\(again.stdout)")
        #expect(again.stdout.contains("stale write") && again.stdout.contains("in job worker.a/write#1"))

        let out = directory.appendingPathComponent("f").path
        let fuzz = try SimrunProcess.run([
            "fuzz", "unruly-counter", "--variant", "crashing", "--noise", "3", "--seeds", "0..<30", "--strategy",
            "random", "--keep-going", "--no-show", "--out", out,
        ])
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH at seed 7"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("non-fifo decisions 6 → 5"), "the crash finding is shrunk: \(fuzz.stdout)")
        let found = try SimrunProcess.run(["replay", out + "/unruly-counter-crashing-crashed.simtrace"])
        #expect(found.status == 0 && found.stdout.contains("identical — crashed at event"), "\(found.stdout)")
    }

    /// `explain` runs in a guarded child: Ctrl-C is passed on, and the command ends with 130.
    @Test func explainStopsOnCtrlC() throws {
        let process = Process()
        process.executableURL = SimrunProcess.executable
        process.arguments = ["explain", lostInput, "--runs", "1000000"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        kill(process.processIdentifier, SIGINT)
        let start = Date()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func aTraceNamingAnUnknownRecordedVariantOrStrategyIsBad() throws {
        let directory = try makeTemporaryDirectory("host")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (label, edit) in [
            ("variant", { (header: inout TraceHeader) in header.variant = "no-such-variant" }),
            ("strategy", { (header: inout TraceHeader) in header.strategy = "bogus:x=y" }),
        ] as [(String, (inout TraceHeader) -> Void)] {
            let path = directory.appendingPathComponent("\(label).simtrace").path
            let plan = RunPlan.probed(scenario: CounterRace.scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
            var header = TraceHeader(
                toolVersion: "test", scenario: "counter-race", variant: "buggy", seed: 1, strategy: "random",
                options: [])
            edit(&header)
            let writer = try TraceWriter(path: path, header: header)
            let result = plan.run(seed: 1, strategy: plan.makeStrategy(), sink: writer)
            try writer.finish(Recorder.footer(for: result))
            for variant in [nil, "fixed"] as [String?] {
                let console = Console(capturing: true)
                let status = SimRun.run(
                    arguments: ["replay", path] + (variant.map { ["--variant", $0] } ?? []),
                    scenarios: BuiltinScenarios.all, console: console)
                #expect(status == 65, "\(label) \(variant ?? "recorded"): \(console.capturedLines)")
            }
        }
    }
}

/// Damaged variants of every committed trace (cut short, bytes flipped), replayed through the CLI
/// and through SimTesting: both give the same verdict and exit code, none exits 0, none dies of a
/// signal. A deterministic sample here; `tools/damaged-replays.sh` runs 1,000 (SIMRUN_DAMAGED_COUNT).
@Suite struct DamagedReplayAgreementTests {
    @Test func cliAndSimTestingAgreeOnDamagedTraces() throws {
        let count = ProcessInfo.processInfo.environment["SIMRUN_DAMAGED_COUNT"].flatMap(Int.init) ?? 24
        let directory = try makeTemporaryDirectory("damaged-agree")
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = try FileManager.default.contentsOfDirectory(atPath: tracesDirectory)
            .filter { $0.hasSuffix(".simtrace") }.sorted()
        let sources = try names.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: tracesDirectory + "/" + $0))) }
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
            do throws(CommandFailure) {
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
