import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// Malformed and out-of-range values are usage errors (64) whose message names the flag and the
/// accepted form; nothing is silently clamped or ignored.
@Suite struct StrictParsingTests {
    @Test(arguments: [
        (["fuzz", "counter-race", "--time", "-1"], "--time <seconds>"),
        (["fuzz", "counter-race", "--time", "soon"], "--time <seconds>"),
        (["fuzz", "counter-race", "--jobs", "-1"], "--jobs <jobs>': expected a whole number from 1 to 256"),
        (["fuzz", "counter-race", "--jobs", "0"], "--jobs <jobs>': expected a whole number from 1 to 256"),
        (["run", "counter-race", "--seed", "-1"], "--seed <seed>': expected a whole number from 0"),
        (["fuzz", "counter-race", "--seeds", "9..<3"], "--seeds <A..<B>'"),
        (["fuzz", "counter-race", "--seeds", "0"], "--seeds <A..<B>'"),
        (["fuzz", "counter-race", "--shard", "5/4"], "--shard <K/N|auto>'"),
        (["fuzz", "counter-race", "--strategy", "pct:depth=0"], "pct:depth must be a whole number from 1 to 1000"),
        (["fuzz", "counter-race", "--strategy", "random:foo=1"], "random takes no parameters"),
        (["fuzz", "counter-race", "--strategy", "surw", "--shard", "1/2"], "--shard does not apply to surw"),
        (
            ["fuzz", "counter-race", "--strategy", "coverage", "--result", "r.json"],
            "--result does not apply to coverage"
        ),
        (["fuzz", "counter-race", "--strategy", "pct:bound=2"], "pct takes only depth=N"),
        (["fuzz", "counter-race", "--strategy", "delay:bound=x"], "delay:bound must be a whole number"),
        (["run", "counter-race", "--strategy", "replay"], "replay follows a recorded trace"),
        (["run", "counter-race", "--strategy", "bfs"], "unknown strategy 'bfs'"),
        (["explain", "t.simtrace", "--runs", "-5"], "--runs <runs>': expected a whole number from 1 to 1000000"),
        (["show", "t.simtrace", "--limit", "-1"], "--limit <limit>'"),
        (["fuzz", "counter-race", "--json", "--quiet"], "give either --json or --quiet"),
        (["fuzz", "counter-race", "--seeds", "-1"], "seeds are not negative"),
        (["fuzz", "counter-race", "--noise", "-1"], "--noise <noise>': expected a whole number from 0 to 64"),
        (["run", "counter-race", "--noise", "-1"], "--noise <noise>': expected a whole number from 0 to 64"),
        (["fuzz", "counter-race", "--seeds", "10..<5"], "10..<5 holds no seed"),
        (["fuzz", "counter-race", "--seeds", "5..<5"], "5..<5 holds no seed"),
        (["fuzz", "counter-race", "--seeds", "18446744073709551616"], "is above 18446744073709551615"),
        (["fuzz", "counter-race", "--seeds", "0..<18446744073709551616"], "a bound is above"),
        (["fuzz", "counter-race", "--time", "1y"], "as 30, 30s, 5m or 2h"),
        (["fuzz", "counter-race", "--shard", "5/4"], "1 <= K <= N (got 5/4)"),
        (["show", "x.simtrace", "--limit", "-1"], "a whole number, 0 or more"),
        (["run", "counter-race", "--variant", "nope"], "has no variant 'nope' (variants: buggy, fixed"),
        // Numbers that overflowed a size once (#44, N6–N13): refused with their range, never a trap.
        (["bench", "--quick", "--only", "kernel", "--scale", "99999999999999"], "--scale <scale>': expected a whole"),
        (["bench", "--quick", "--only", "kernel", "--scale", "0"], "--scale <scale>': expected a whole number from 1 to"),
        (["bench", "--quick", "--only", "kernel", "--scale", "-3"], "--scale <scale>': expected a whole number from 1"),
        (["replay", "t.simtrace", "--noise", "-1"], "--noise <noise>': expected a whole number from 0 to 64"),
        (["replay", "t.simtrace", "--noise", "1000000"], "--noise <noise>': expected a whole number from 0 to 64"),
        (["fuzz", "counter-race", "--noise", "99999999999999999999"], "--noise <noise>': expected a whole number from 0"),
        (["fuzz", "counter-race", "--check-determinism=0"], "expected a whole number, 1 or more"),
        (["fuzz", "counter-race", "--check-determinism=99999999999999999999"], "expected a whole number, 1 or more"),
        // An empty selection.
        (["bench", "--quick", "--only", ""], "--only"), (["bench", "--quick", "--only", ","], "--only"),
        (["bench", "--quick", "--only", " "], "--only"), (["bench", "--quick", "--only", ",,"], "--only"),
    ])
    func badValuesAreUsageErrorsNamingTheFlag(arguments: [String], message: String) throws {
        let run = try SimrunProcess.run(arguments)
        let output = run.stdout + run.stderr
        #expect(run.status == 64, "\(arguments): \(output)")
        #expect(output.contains(message), "\(arguments): \(output)")
        // The reason, never the parser's bare complaint.
        #expect(!output.contains("Missing value"), "\(arguments): \(output)")
    }

    /// Minutes and hours are durations too.
    @Test func aDurationInMinutesIsAccepted() throws {
        let run = try SimrunProcess.run(["fuzz", "counter-race", "--variant", "fixed", "--time", "0.01m", "-q"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    /// `--shard auto` in a Slurm task off its array's grid: a usage error naming the task and the array.
    @Test func aSlurmTaskOffItsArraysGridIsNamed() throws {
        let output = try SimrunProcess.run(
            ["fuzz", "counter-race", "--variant", "fixed", "--seeds", "8", "--shard", "auto"],
            environment: [
                "SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6",
                "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_STEP": "2",
            ])
        #expect(output.status == 64)
        #expect(
            output.stderr.contains("SLURM_ARRAY_TASK_ID 3 is not a task of the job array 0-6:2"), "\(output.stderr)")
    }

    @Test func aFromTraceOfAnotherScenarioIsAUsageError() throws {
        let directory = try makeTemporaryDirectory("from-mismatch")
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        let (status, output) = simrun(["fuzz", "counter-race", "--from", trace, "--out", directory.path])
        #expect(status == 64, "\(output)")
        #expect(output.contains("--from \(trace): the trace is of scenario lost-input-navigation, not counter-race"))
        // Naming the trace's own scenario is fine.
        let same = simrun(["fuzz", "lost-input-navigation", "--from", trace, "--seeds", "3", "--out", directory.path])
        #expect(same.0 != 64, "\(same.1)")
    }

    /// `run --strategy` refuses exactly the strategies that say they follow a recorded trace (the CLI
    /// asks the strategy, it names no kind), and every other strategy runs a seed.
    @Test func runRefusesExactlyTheStrategiesThatFollowARecordedTrace() {
        #expect(StrategySpec.Kind.allCases.contains { $0.followsRecordedTrace }, "replay follows a trace")
        for kind in StrategySpec.Kind.allCases {
            let (status, output) = simrun([
                "run", "counter-race", "--variant", "fixed", "--seed", "1", "--strategy", kind.rawValue,
            ])
            if kind.followsRecordedTrace {
                #expect(status == 64, "\(kind): \(output)")
                #expect(output.contains("\(kind.rawValue) follows a recorded trace"), "\(kind): \(output)")
            } else {
                #expect(status != 64, "\(kind): \(output)")
            }
        }
    }

    @Test func strategySpecParsingIsStrictAndRoundTripsEveryDescription() {
        for kind in StrategySpec.Kind.allCases {
            let spec = StrategySpec(kind: kind)
            guard case .success(let parsed) = StrategySpec.parse(spec.description) else {
                Issue.record("\(spec.description) does not parse")
                continue
            }
            #expect(parsed.description == spec.description)
        }
        #expect(StrategySpec(parsing: "pct:depth=1000")?.parameter == 1000)
        #expect(StrategySpec(parsing: "pct:depth=1001") == nil)
        #expect(StrategySpec(parsing: "PCT:depth=2")?.kind == .pct)
        #expect(StrategySpec(parsing: "dfs:preemptions=0")?.parameter == 0)
        #expect(StrategySpec(parsing: "pct:depth=2=3") == nil)
        #expect(StrategySpec(parsing: "pct:") == nil)
        guard case .failure(let error) = StrategySpec.parse("delay:depth=1") else {
            Issue.record("delay:depth=1 parsed")
            return
        }
        #expect(error.description == "delay takes only bound=N (got 'depth=1')")
        #expect(StrategySpec.parameter(of: .pct)?.range == 1...1_000)
        #expect(StrategySpec.parameter(of: .random) == nil)
    }
}
