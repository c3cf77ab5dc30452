import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

@Suite struct CommandLineTests {
    @Test func listShowsEveryScenarioAndVariant() {
        let (status, output) = simrun(["list"])
        #expect(status == 0)
        // The groups (sctbench, simrun's own fixtures) are listed with --group.
        for scenario in BuiltinScenarios.all where scenario.group == nil {
            #expect(output.contains(scenario.name))
            for variant in scenario.variants { #expect(output.contains(variant.name)) }
        }
    }

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

    @Test func badArgumentsMissingFilesAndBadTracesHaveTheirOwnExitCodes() throws {
        #expect(simrun(["run", "no-such-scenario"]).0 == 64)
        #expect(simrun(["run", "counter-race", "--variant", "nope"]).0 == 64)
        #expect(simrun(["fuzz", "counter-race", "--seeds", "9..<3"]).0 == 64)
        #expect(simrun(["frobnicate"]).0 == 64)
        #expect(simrun(["replay", "/nonexistent/trace.simtrace"]).0 == 66)
        let directory = try makeTemporaryDirectory()
        let garbage = directory.appendingPathComponent("garbage.simtrace")
        try Data("this is not a trace".utf8).write(to: garbage)
        let (status, output) = simrun(["show", garbage.path])
        #expect(status == 65)
        #expect(output.contains(garbage.path))
        #expect(output.split(separator: "\n").count == 1, "one clear line")
    }

    @Test func aRecordedRunReplaysIdentically() throws {
        let directory = try makeTemporaryDirectory()
        let path = directory.appendingPathComponent("run.simtrace").path
        // The bug scenarios; unruly-counter's variants trap or read the wall clock on purpose. A
        // variant that traps would end this process (it runs in it): SimEngineTests' `FifoCrashTests`.
        for scenario in BuiltinScenarios.all where scenario.hasVariant("buggy") && scenario.hasVariant("fixed") {
            for variant in scenario.variants.filter({ !$0.summary.contains("trap") }).map(\.name) {
                _ = simrun([
                    "run", scenario.name, "--variant", variant, "--seed", "7", "--strategy", "pct", "--out", path,
                ])
                let (status, output) = simrun(["replay", path])
                #expect(status == 0, "\(scenario.name)/\(variant): \(output)")
                #expect(output.contains("identical"))
            }
        }
    }

    @Test func aChangedScenarioIsReportedAsADivergenceAtTheRightEvent() throws {
        let directory = try makeTemporaryDirectory()
        let path = directory.appendingPathComponent("race.simtrace").path
        #expect(simrun(["run", "counter-race", "--variant", "fixed", "--seed", "1", "--out", path]).0 == 0)
        // The same scenario, except that the second worker's read records one extra event.
        var changed = CounterRace.scenario
        let original = changed.setUp
        changed.setUp = { simulation, variant in
            original(simulation, variant)
            simulation.post(on: "worker.c", "audit") { simulation.emit("audit.note", "extra") }
        }
        let (status, output) = simrun(["replay", path], scenarios: [changed])
        #expect(status == 1)
        #expect(output.contains("DIVERGED"))
        #expect(
            output.contains("audit") || output.contains("recording ends"),
            "the first differing event is shown: \(output)")
        // Both sides' events are named (lanes, jobs), never left as unknown symbols: the replayed
        // side ends with the extra job.
        let shown = output.split(separator: "\n").drop { !$0.contains("recorded:") }
        #expect(shown.contains { $0.contains("worker.c sched.pick audit") }, "\(output)")
        #expect(shown.filter { $0.contains("worker.b counter.read worker.b") }.count == 2, "\(output)")
        let live = shown
        #expect(!live.contains { $0.contains(" ? ") || $0.hasSuffix(" ?") }, "\(output)")
    }

    /// A run that ends before its recording: the context shows the last matched events, then the
    /// recorded event the run never reached (the generated mutant G0623 showed the first ones).
    @Test func aRunShorterThanItsRecordingShowsTheEventsJustBeforeTheDifference() throws {
        let directory = try makeTemporaryDirectory()
        let path = directory.appendingPathComponent("longer.simtrace").path
        var changed = CounterRace.scenario
        let original = changed.setUp
        changed.setUp = { simulation, variant in
            original(simulation, variant)
            simulation.post(on: "worker.c", "audit") { simulation.emit("audit.note", "extra") }
        }
        let recordedRun = simrun(
            ["run", "counter-race", "--variant", "fixed", "--seed", "1", "--strategy", "fifo", "--out", path],
            scenarios: [changed])
        #expect(recordedRun.0 == 0, "\(recordedRun.1)")
        let (status, output) = simrun(["replay", path])
        #expect(status == 1 && output.contains("the recording continues after the run ended"), "\(output)")
        let recorded = output.split(separator: "\n").drop { !$0.contains("recorded:") }.dropFirst()
            .prefix { !$0.contains("replayed:") }
        #expect(recorded.last?.contains("worker.c sched.pick audit") == true, "\(output)")
        #expect(recorded.dropLast().last?.contains("worker.b counter.write worker.b value=2") == true, "\(output)")
    }

    @Test func showMarksDeviationsAndTheOracleFailure() throws {
        let directory = try makeTemporaryDirectory()
        let (status, output) = simrun([
            // Not counter-race: its bug shows under fifo, so its shrunk trace departs from fifo nowhere.
            "fuzz", "lost-input-navigation", "--variant", "buggy", "--strategy", "random", "--seeds", "0..<200",
            "--out",
            directory.path, "--no-show", "--jobs", "1",
        ])
        #expect(status == 1)
        let trace = try #require(
            output.split(separator: "\n").first { $0.contains("trace:") }?.split(separator: " ").last.map(String.init))
        let shown = simrun(["show", trace])
        #expect(shown.0 == 0)
        #expect(shown.1.contains("!!"), "the oracle failure is highlighted")
        #expect(shown.1.contains(" *"), "a decision that departs from fifo is marked")
        #expect(shown.1.contains("verdict: FAIL"))
    }

    @Test func distinctFailuresOfOneOracleAreSavedUnderDistinctNames() throws {
        // One oracle, two message shapes: both findings must be kept, neither overwriting the other.
        let twoWays = Scenario(name: "two-ways", summary: "fails two ways", variants: [.init("buggy", "")]) {
            simulation, _ in
            simulation.post(on: "main", "decide") {
                let way = simulation.choose(3, "way")
                if way > 0 { simulation.fail("same-oracle", way == 1 ? "went left" : "went right") }
            }
        }
        let directory = try makeTemporaryDirectory()
        let (status, output) = simrun(
            [
                "fuzz", "two-ways", "--strategy", "random", "--seeds", "0..<50", "--keep-going", "--no-show", "--out",
                directory.path,
            ], scenarios: [twoWays])
        #expect(status == 1)
        let saved = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".simtrace")
        }
        #expect(saved.count == 2, "\(saved) — \(output)")
    }
}
