import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

/// Shrinking and replay by identity hold up against irrelevant work: with three noise lanes the
/// shrinker reaches the same number of departures from fifo as without, and the shrunk trace's
/// races all happen on the fixed variant; a campaign with noise records it and shrinks past it.
@Suite struct NoiseShrinkTests {
    private struct Shrunk {
        var plan: RunPlan
        var seed: UInt64
        var outcome: Shrinker.Outcome
    }

    /// The first failing `pct` seed of `buggy` with `noise` lanes, shrunk.
    private func shrunk(_ name: String, noise: Int) throws -> Shrunk {
        let scenario = try ScenarioCatalog(BuiltinScenarios.all).scenario(named: name)
        let plan = RunPlan.probed(
            scenario: scenario, variant: "buggy", strategy: StrategySpec(kind: .pct), noise: noise)
        let strategy = plan.makeStrategy()
        let failing = (UInt64(0)..<3_000).lazy.map { ($0, plan.run(seed: $0, strategy: strategy)) }
            .first { $0.1.verdict.isFailure }
        let (seed, result) = try #require(failing, "\(name) with noise \(noise): no failure in 3000 seeds")
        let shrinker = Shrinker(plan: plan, seed: seed, target: FailureSignature(result.verdict))
        let outcome = try #require(shrinker.shrink(result.tape))
        return Shrunk(plan: plan, seed: seed, outcome: outcome)
    }

    @Test(arguments: ["lost-input-navigation", "element-update-reentrancy", "cart-login-barrier"])
    func threeNoiseLanesShrinkToTheNoiselessDepartures(_ name: String) throws {
        let quiet = try shrunk(name, noise: 0)
        let noisy = try shrunk(name, noise: 3)
        #expect(noisy.outcome.original.deviations > quiet.outcome.result.deviations, "noise adds departures")
        #expect(
            noisy.outcome.result.deviations == quiet.outcome.result.deviations,
            "\(name): \(noisy.outcome.original.deviations) → \(noisy.outcome.result.deviations) with noise, \(quiet.outcome.result.deviations) without"
        )

        // Recorded, the noisy shrunk trace replays on `fixed`: every race followed, and it passes.
        let directory = try makeTemporaryDirectory("noise-shrink")
        let path = directory.appendingPathComponent("\(name).simtrace").path
        _ = try Recorder.record(
            plan: noisy.plan, seed: noisy.seed, tape: noisy.outcome.tape, strategyName: "pct", to: path)
        let input = try TraceInput(path: path)
        #expect(input.header.options.contains { $0.key == "noise" && $0.value == "3" })
        let fixed = try input.plan(in: ScenarioCatalog(BuiltinScenarios.all), variant: "fixed")
        #expect(fixed.noise == 3)
        let outcome = TraceReplayer(input: input, plan: fixed).replayForVerdict()
        #expect(outcome.isConclusive, "\(name): \(outcome.tally.line) \(outcome.notes)")
        #expect(outcome.tally.followedDeviations == noisy.outcome.result.deviations)
        #expect(outcome.result.verdict == .pass, "\(name) on fixed: \(outcome.result.verdict)")
    }

    @Test func aCampaignWithNoiseRecordsItAndShrinksPastIt() throws {
        let directory = try makeTemporaryDirectory("noise-fuzz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(
            scenario: LostInputNavigation.scenario, variant: "buggy", strategy: .campaignDefault, noise: 3)
        let result = try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: 0..<300, jobs: 1),
            options: .init(directory: directory.path, shrink: true, isolation: .inProcess)
        ).run()
        let finding = try #require(result.findings.first, "no failure of lost-input-navigation with noise 3")
        guard case .shrunk(let report) = finding.shrink else {
            Issue.record("not shrunk: \(String(describing: finding.shrink))")
            return
        }
        // The shrunk trace keeps the two races of the noiseless minimum.
        #expect(report.after.nonFifo == 2, "\(report.line)")
        let trace = try #require(finding.path)
        #expect(trace.hasSuffix("/lost-input-navigation-buggy-typed-text-kept.simtrace"), "\(trace)")
        #expect(try TraceInput(path: trace).header.options.contains { $0.key == "noise" && $0.value == "3" })
        let fixed = try TraceReplay.decide(
            ReplayRequest(trace: trace, variant: "fixed"), catalog: ScenarioCatalog(BuiltinScenarios.all))
        #expect(fixed.verdict == .pass(raceRemoved: nil), "\(fixed.verdict)")
        #expect(
            fixed.noise == 3 && fixed.tally.deviations == 2 && fixed.tally.followedDeviations == 2,
            "\(fixed.tally.line)")
    }

    @Test func noiseTouchesNothingAndEndsWithTheRun() throws {
        // Under fifo the scenario's own verdict and events are the same with noise: noise only adds
        // its ticks, and stops when the scenario has nothing left to do.
        let scenario = LostInputNavigation.scenario
        let quiet = MemorySink()
        let noisy = MemorySink()
        let a = scenario.run(variant: "buggy", seed: 1, strategy: FIFOStrategy(), sink: quiet)
        let b = scenario.withNoise(lanes: 3).run(variant: "buggy", seed: 1, strategy: FIFOStrategy(), sink: noisy)
        #expect(a.verdict == b.verdict)
        let own = { (sink: MemorySink) in
            sink.events.filter { !sink.text($0.lane).hasPrefix("noise.") }.map {
                "\(sink.text($0.lane)) \(sink.text($0.kind)) \(sink.text($0.subject))"
            }
        }
        #expect(own(quiet) == own(noisy))
        let ticks = noisy.events.filter { sink in noisy.text(sink.subject) == "noise.tick" }
        #expect(ticks.count >= 3 && b.steps > a.steps)
        #expect(b.tape.count > a.tape.count, "noise adds decisions")
    }

    @Test func aPlanOfMoreThanSixtyFourNoiseLanesIsAUsageError() throws {
        // The bound `--noise` enforces too (ResourceLimitTests and StrictParsingTests hold the command
        // line's refusal): a plan rebuilt from its descriptor refuses 65 lanes, takes 64.
        let catalog = ScenarioCatalog(BuiltinScenarios.all)
        var descriptor = try RunPlan.probed(
            scenario: CounterRace.scenario, variant: "buggy", strategy: StrategySpec(kind: .random)
        ).descriptor()
        descriptor.noise = RunPlan.maxNoise + 1
        #expect(RunPlan.maxNoise == 64)
        #expect(
            performing: { try RunPlan(descriptor, in: catalog) }, throws: { ($0 as? SimEngineError)?.kind == .usage })
        descriptor.noise = RunPlan.maxNoise
        #expect(try RunPlan(descriptor, in: catalog).noise == 64)
    }
}
