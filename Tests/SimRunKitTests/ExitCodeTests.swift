import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// One exit-code table for every command: each command's `--help` lists the codes it can return,
/// and this suite makes each command return each of them, no more and no fewer.
@Suite(.serialized) struct ExitCodeTests {
    /// A scenario named `toggle` that fails (one decision, then an oracle failure) or passes: a
    /// trace recorded on the failing one no longer fails on the passing one (a changed build).
    static func toggle(failing: Bool) -> Scenario {
        Scenario(name: "toggle", summary: "fails or not", variants: [.init("v", "")]) { simulation, _ in
            simulation.post(on: "a", "one") {}
            simulation.post(on: "b", "two") { if failing { simulation.fail("toggle", "it failed") } }
        }
    }

    /// A scenario named `unheld` that passes over a lock simrun cannot see: not a plain pass (2).
    static let unheld = Scenario(name: "unheld", summary: "passes over an invisible lock", variants: [.init("v", "")]) {
        simulation, _ in
        simulation.post(on: "a", "one") { simulation.noteUncontrolled(.invisibleLock, "Mutex.withLock", at: "one") }
        simulation.post(on: "b", "two") {}
    }

    /// The codes a command's help lists under "Exit codes:".
    static func documentedCodes(_ command: [String]) -> Set<Int32> {
        let (_, help) = simrun(command + ["--help"])
        guard let start = help.range(of: "Exit codes:") else { return [] }
        var codes = Set<Int32>()
        for line in help[start.upperBound...].split(separator: "\n") {
            let words = line.split(separator: " ")
            guard line.hasPrefix("  "), let first = words.first, let code = Int32(first) else { break }
            codes.insert(code)
        }
        return codes
    }

    struct Case {
        var command: String
        var code: Int32
        var arguments: [String]
        var scenarios: [Scenario] = BuiltinScenarios.all
    }

    @Test func everyCommandReturnsExactlyTheCodesItsHelpLists() throws {
        let directory = try makeTemporaryDirectory("exit-codes")
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let garbage = path("garbage.simtrace")
        try Data("this is not a trace".utf8).write(to: URL(fileURLWithPath: garbage))
        let missing = path("missing.simtrace")
        // A failing trace of the built-in lost-input scenario, and one of `toggle`.
        let lost = path("lost.simtrace")
        LostInputFixture.record(to: lost)
        let toggled = path("toggle.simtrace")
        #expect(simrun(["run", "toggle", "--out", toggled], scenarios: [Self.toggle(failing: true)]).0 == 1)
        let passing = path("pass.simtrace")
        #expect(simrun(["run", "counter-race", "--variant", "fixed", "--out", passing]).0 == 0)
        let fixedNow = [Self.toggle(failing: false)]
        let mergeResults = (pass: path("rp/1.json"), fail: path("rf/1.json"))
        #expect(
            simrun([
                "fuzz", "counter-race", "--variant", "fixed", "--seeds", "4", "--shard", "1/1", "--result",
                mergeResults.pass,
            ]).0 == 0)
        #expect(
            simrun([
                "fuzz", "lost-input-navigation", "--seeds", "20", "--shard", "1/1", "--no-show", "--out",
                path("rf-out"),
                "--result", mergeResults.fail,
            ]).0 == 1)
        let unheldResult = path("ru/1.json")
        #expect(
            simrun(
                ["fuzz", "unheld", "--seeds", "4", "--shard", "1/1", "--result", unheldResult, "--out", path("ru-out")],
                scenarios: [Self.unheld]
            ).0 == 2)
        let cut = path("cut.simtrace")
        try Data(try Data(contentsOf: URL(fileURLWithPath: lost)).prefix(600)).write(to: URL(fileURLWithPath: cut))
        let cases: [Case] = [
            Case(command: "list", code: 0, arguments: ["list"]),
            Case(command: "list", code: 64, arguments: ["list", "--bogus"]),
            Case(command: "run", code: 0, arguments: ["run", "counter-race", "--variant", "fixed"]),
            Case(
                command: "run", code: 1,
                arguments: LostInputFixture.run),
            Case(command: "run", code: 2, arguments: ["run", "unheld"], scenarios: [Self.unheld]),
            Case(command: "run", code: 64, arguments: ["run", "counter-race", "--seed", "-1"]),
            Case(command: "run", code: 73, arguments: ["run", "counter-race", "--out", "/proc/simrun-x/t.simtrace"]),
            Case(
                command: "fuzz", code: 0,
                arguments: ["fuzz", "counter-race", "--variant", "fixed", "--seeds", "5", "--out", path("f0")]),
            Case(
                command: "fuzz", code: 1,
                arguments: ["fuzz", "lost-input-navigation", "--no-show", "--out", path("f1")]),
            Case(
                command: "fuzz", code: 2, arguments: ["fuzz", "unheld", "--seeds", "4", "--out", path("f2")],
                scenarios: [Self.unheld]),
            Case(command: "fuzz", code: 64, arguments: ["fuzz", "counter-race", "--time", "-1"]),
            Case(command: "fuzz", code: 65, arguments: ["fuzz", "--from", garbage]),
            Case(command: "fuzz", code: 66, arguments: ["fuzz", "--from", missing]),
            Case(command: "fuzz", code: 73, arguments: ["fuzz", "counter-race", "--out", "/proc/simrun-x"]),
            Case(command: "replay", code: 0, arguments: ["replay", lost]),
            Case(command: "replay", code: 1, arguments: ["replay", toggled], scenarios: fixedNow),
            // A trace cut short: its prefix replays identically, but the recorded verdict is never reached.
            Case(command: "replay", code: 2, arguments: ["replay", cut]),
            Case(command: "replay", code: 64, arguments: ["replay", lost, "--variant", "nope"]),
            Case(command: "replay", code: 65, arguments: ["replay", garbage]),
            Case(command: "replay", code: 66, arguments: ["replay", missing]),
            Case(command: "shrink", code: 0, arguments: ["shrink", lost, "-o", path("shrunk.simtrace")]),
            Case(
                command: "shrink", code: 1, arguments: ["shrink", toggled, "-o", path("s1.simtrace")],
                scenarios: fixedNow),
            Case(command: "shrink", code: 64, arguments: ["shrink", passing, "-o", path("s2.simtrace")]),
            Case(command: "shrink", code: 65, arguments: ["shrink", garbage, "-o", path("s3.simtrace")]),
            Case(command: "shrink", code: 66, arguments: ["shrink", missing]),
            Case(command: "shrink", code: 73, arguments: ["shrink", lost, "-o", "/proc/simrun-x.simtrace"]),
            Case(command: "show", code: 0, arguments: ["show", lost]),
            Case(command: "show", code: 64, arguments: ["show", lost, "--limit", "-1"]),
            Case(command: "show", code: 65, arguments: ["show", garbage]),
            Case(command: "show", code: 66, arguments: ["show", missing]),
            Case(command: "explain", code: 0, arguments: ["explain", lost, "--runs", "10"]),
            Case(command: "explain", code: 1, arguments: ["explain", toggled, "--runs", "3"], scenarios: fixedNow),
            Case(command: "explain", code: 64, arguments: ["explain", lost, "--runs", "0"]),
            Case(command: "explain", code: 65, arguments: ["explain", garbage]),
            Case(command: "explain", code: 66, arguments: ["explain", missing]),
            Case(
                command: "export", code: 0, arguments: ["export", lost, "--format", "jsonl", "--out", path("e.jsonl")]),
            Case(command: "export", code: 64, arguments: ["export", lost, "--format", "svg"]),
            Case(command: "export", code: 65, arguments: ["export", garbage, "--format", "jsonl"]),
            Case(command: "export", code: 66, arguments: ["export", missing, "--format", "jsonl"]),
            Case(
                command: "export", code: 73, arguments: ["export", lost, "--format", "jsonl", "--out", "/proc/x.jsonl"]),
            Case(command: "bench", code: 64, arguments: ["bench", "--only", "nothing"]),
            Case(command: "merge", code: 0, arguments: ["merge", mergeResults.pass]),
            Case(command: "merge", code: 1, arguments: ["merge", mergeResults.fail, "--out", path("m1")]),
            Case(command: "merge", code: 2, arguments: ["merge", unheldResult], scenarios: [Self.unheld]),
            Case(command: "merge", code: 64, arguments: ["merge"]),
            Case(command: "merge", code: 65, arguments: ["merge", garbage]),
            Case(command: "merge", code: 66, arguments: ["merge", missing]),
        ]
        for entry in cases {
            let (status, output) = simrun(entry.arguments, scenarios: entry.scenarios)
            #expect(status == entry.code, "\(entry.arguments.joined(separator: " ")): \(output)")
            if entry.code >= 64 {
                let errors = output.split(separator: "\n").filter { $0.hasPrefix("err: ") }
                #expect(!errors.isEmpty, "a failing command says why: \(entry.arguments)")
            }
        }
        // Codes that need a process of their own: 130 (a signal: fuzz in InterruptionTests), bench 0
        // and 73 (its recording child, a temporary directory from $TMPDIR).
        var walked = cases.map { ($0.command, $0.code) }
        walked += [("fuzz", 130), ("bench", 0), ("bench", 73), ("bench", 130)]
        // explain and bench 130: InterruptionTests.longCommandsEndAtTheFirstSignalWithOneThirty too.
        // 73 for a stdout that cannot be written, and 130 for a signal: the two tests below.
        walked += Self.everyCommand.map { ($0, ExitStatus.cannotWrite) }
        walked += Self.everyCommand.filter { $0 != "list" && $0 != "bench" }.map { ($0, ExitStatus.interrupted) }
        walked += [("merge", 130)]
        for command in Self.everyCommand {
            let documented = Self.documentedCodes([command])
            #expect(!documented.isEmpty, "\(command) --help lists its exit codes")
            let exercised = Set(walked.filter { $0.0 == command }.map(\.1))
            #expect(
                exercised == documented, "\(command): help lists \(documented.sorted()), walked \(exercised.sorted())")
        }
        #expect(Self.documentedCodes([]) == Set(ExitStatus.table.map(\.code)), "the root help lists the whole table")
    }

    static let everyCommand = [
        "list", "run", "fuzz", "replay", "shrink", "show", "explain", "export", "bench", "merge",
    ]

    /// Every command's output is checked: stdout on a full device is 73, with the reason.
    @Test(.enabled(if: OutputTargetTests.canMakeDevices, "device nodes can be made only by root on Linux"))
    func stdoutThatCannotBeWrittenIsSeventyThreeForEveryCommand() throws {
        let directory = try makeTemporaryDirectory("stdout-codes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let lost = path("lost.simtrace")
        LostInputFixture.record(to: lost)
        #expect(
            simrun([
                "fuzz", "counter-race", "--variant", "fixed", "--seeds", "4", "--shard", "1/1", "--result",
                path("r/1.json"),
            ]).0 == 0)
        let quick: [String: [String]] = [
            "list": ["list"], "run": ["run", "counter-race", "--variant", "fixed"],
            "fuzz": ["fuzz", "counter-race", "--variant", "fixed", "--seeds", "3"], "replay": ["replay", lost],
            "shrink": ["shrink", lost, "-o", path("s.simtrace")], "show": ["show", lost],
            "explain": ["explain", lost, "--runs", "2"], "export": ["export", lost, "--format", "jsonl"],
            "bench": ["bench", "--quick", "--only", "kernel"], "merge": ["merge", path("r")],
        ]
        let full = try #require(OutputTargetTests.device("fakefull", minor: 7, in: directory))
        for command in Self.everyCommand {
            let arguments = try #require(quick[command])
            let (status, errors) = try OutputTargetTests.run(arguments, in: directory, stdout: full)
            #expect(status == 73, "\(command): \(errors)")
            #expect(errors.contains("cannot write to stdout"), "\(command): \(errors)")
        }
    }

    /// Every command that reads or writes a file honours a signal while it waits on it (a FIFO nobody
    /// opens: 130).
    @Test func everyCommandWaitingOnAFileHonoursASignal() throws {
        let directory = try makeTemporaryDirectory("signal-codes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let fifo = path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let resultFIFO = path("rfifo.json")
        #expect(mkfifo(resultFIFO, 0o600) == 0)
        let waiting: [[String]] = [
            ["run", "counter-race", "--variant", "fixed", "--out", fifo], ["replay", fifo], ["shrink", fifo],
            ["show", fifo], ["explain", fifo], ["export", fifo, "--format", "jsonl"], ["merge", resultFIFO],
        ]
        for arguments in waiting {
            let process = try SimrunProcess.start(arguments, in: directory)
            // Then blocked on the FIFO, or about to be.
            if !SimrunProcess.waitUntilHandlingSignals(process) { Thread.sleep(forTimeInterval: 1) }
            kill(process.processIdentifier, SIGINT)
            SimrunProcess.waitForExit(process, killingAfter: 30)
            #expect(
                process.terminationReason == .exit && process.terminationStatus == 130, "\(arguments)")
        }
    }

    @Test func benchExitsZeroAndSeventyThreeWhenItCannotMakeItsDirectory() throws {
        let quick = try SimrunProcess.run(["bench", "--quick", "--only", "kernel"], timeout: 300)
        #expect(quick.status == 0, "\(quick.stderr)")
        let directory = try makeTemporaryDirectory("bench-73")
        defer { try? FileManager.default.removeItem(at: directory) }
        let errors = Pipe()
        let process = try SimrunProcess.start(
            ["bench", "--quick", "--only", "kernel"], in: directory, environment: ["TMPDIR": "/proc/simrun-nowhere"],
            stderr: errors)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 73, "\(message)")
        #expect(message.contains("TMPDIR /proc/simrun-nowhere"), "\(message)")
    }

    @Test func anUnusableTMPDIRIsCannotWriteNeverBugFound() throws {
        let directory = try makeTemporaryDirectory("no-tmpdir")
        let missing = directory.appendingPathComponent("missing").path
        let check = try SimrunProcess.run(
            ["run", "lost-input-navigation", "--variant", "fixed", "--seed", "1", "--check-determinism", "--json"],
            in: directory, environment: ["TMPDIR": missing])
        #expect(check.status == 73, "\(check.stderr)")
        #expect(check.stdout.contains("\"exitCode\":73"), "\(check.stdout)")
        // A campaign still saves its finding in --out and says where, though its re-checks need TMPDIR.
        let fuzz = try SimrunProcess.run(
            ["fuzz", "lost-input-navigation", "--seeds", "20", "--no-show", "--out", "o"], in: directory,
            environment: ["TMPDIR": missing])
        #expect(fuzz.status == 1, "\(fuzz.stderr)")
        #expect(
            fuzz.stdout.contains("  trace:  o/lost-input-navigation-buggy-typed-text-kept.simtrace"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("  replay: "), "\(fuzz.stdout)")
    }
}
