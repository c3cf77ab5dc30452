import SimCore
import SimScenarios
import Testing

/// What every built-in scenario promises (issue: bug scenarios): each buggy variant is found by `pct`
/// and by `random` within 1,000 seeds from 0, each fixed variant survives 2,000 seeds of both, the
/// same seed gives the same run, and fuzzing reaches every coverage goal.
@Suite struct ScenarioContractTests {
    /// The bug scenarios (a buggy and a fixed variant); `unruly-counter`, the reliability probe that
    /// traps and reads the wall clock on purpose, is not one.
    /// `@MainActor` scenarios run here too (the load-time executor factory), but their campaigns are
    /// slower: `AsyncScenarioTests` holds them to the same promises through `simrun`.
    static let bugScenarios = BuiltinScenarios.all.filter {
        $0.hasVariant("buggy") && $0.hasVariant("fixed") && $0.concurrency != .executorFactory
    }

    /// Scenarios whose buggy variant traps (a crash finding): running it here would kill the test
    /// process, so `FindingCampaignCrashTests` (SimEngineTests) fuzzes it in worker processes of `simrun`.
    static let trapping: Set<String> = ["blueprint-reentrant-update-crash", "dispatch-group-double-leave"]

    /// The variants of `scenario` that can run in this process.
    static func inProcessVariants(_ scenario: Scenario) -> [String] {
        scenario.variants.map(\.name).filter { !(trapping.contains(scenario.name) && $0.hasPrefix("buggy")) }
    }

    static let buggyCases: [(String, String)] = bugScenarios.flatMap { scenario in
        inProcessVariants(scenario).filter { $0.hasPrefix("buggy") }.map { (scenario.name, $0) }
    }
    static let names = bugScenarios.map(\.name)

    /// The scenario, run as its bug needs (`--preempt` for a race inside synchronous code).
    static func scenario(_ name: String) -> Scenario {
        let found = BuiltinScenarios.all.first { $0.name == name }!
        return found.running(on: found.bugNeeds)
    }

    /// The first failing seed, with strategies built as `simrun fuzz` builds them (step count from a probe).
    static func firstFailingSeed(_ name: String, _ variant: String, _ kind: StrategySpec.Kind, within: UInt64)
        -> UInt64?
    {
        let scenario = scenario(name)
        let probe = scenario.run(variant: variant, seed: 0, strategy: FIFOStrategy())
        let strategy = StrategySpec(kind: kind).makeStrategy(estimatedSteps: max(1, probe.steps))
        return (0..<within).first { scenario.run(variant: variant, seed: $0, strategy: strategy).verdict.isFailure }
    }

    @Test(arguments: buggyCases, [StrategySpec.Kind.pct, .random])
    func everyBuggyVariantIsFoundWithinAThousandSeeds(_ bug: (String, String), _ kind: StrategySpec.Kind) {
        #expect(Self.firstFailingSeed(bug.0, bug.1, kind, within: 1_000) != nil, "\(bug) not found by \(kind)")
    }

    @Test func theFlagshipIsFoundByPCTWithinTwentySeeds() throws {
        let seed = try #require(Self.firstFailingSeed("lost-input-navigation", "buggy", .pct, within: 20))
        #expect(seed < 20)
    }

    @Test(arguments: names, [StrategySpec.Kind.pct, .random])
    func everyFixedVariantPassesTwoThousandSeeds(_ name: String, _ kind: StrategySpec.Kind) {
        let scenario = Self.scenario(name)
        guard scenario.hasVariant("fixed") else { return }
        #expect(Self.firstFailingSeed(name, "fixed", kind, within: 2_000) == nil)
    }

    @Test(arguments: names)
    func theSameSeedGivesTheSameRun(_ name: String) {
        let scenario = Self.scenario(name)
        for variant in Self.inProcessVariants(scenario) {
            for seed in 0..<20 as Range<UInt64> {
                let first = scenario.run(variant: variant, seed: seed, strategy: RandomStrategy())
                let second = scenario.run(variant: variant, seed: seed, strategy: RandomStrategy())
                #expect(first.digest == second.digest, "\(name)/\(variant) seed \(seed)")
                #expect(first.tape == second.tape)
                #expect(first.verdict == second.verdict)
            }
        }
    }

    @Test(arguments: names)
    func fuzzingReachesEveryCoverageGoal(_ name: String) {
        let scenario = Self.scenario(name)
        var reached: Set<String> = []
        var goals: Set<String> = []
        for seed in 0..<400 as Range<UInt64> {
            for variant in Self.inProcessVariants(scenario) {
                let result = scenario.run(variant: variant, seed: seed, strategy: RandomStrategy())
                goals.formUnion(result.goals)
                reached.formUnion(result.reachedGoals)
            }
        }
        #expect(!goals.isEmpty, "\(name) declares no coverage goal")
        #expect(goals.subtracting(reached).isEmpty, "\(name): unreached \(goals.subtracting(reached).sorted())")
    }
}
