import SimCore
import SimEngine
import SimTestSupport
import Testing

/// Shrink minimality as a rule, over the whole space of a small family of failures: a run makes
/// `sites` data choices that each depart from fifo (value 1), and fails when the departures it keeps
/// satisfy a condition over them. The shrinker's documentation promises "the same failure
/// throughout" with departures dropped while the failure survives with fewer (ddmin), every
/// candidate a real re-run. The reference, from that: for "fails when every site in S departs" the
/// shrunk schedule keeps exactly S; for "fails when any site in S departs" it keeps one site of S;
/// for "fails when at least k sites of S depart" it keeps exactly k of S; and a failure of another
/// oracle on the way is never kept.
@Suite struct ShrinkMinimalityTests {
    /// Takes fifo's job at every pick and departs (value 1) at every data choice.
    final class DepartEverywhere: Strategy {
        var description: String { "depart-everywhere" }
        func start(seed: UInt64, symbols: SymbolTable) {}
        func pick(_ ready: ReadySet) -> Int { ready.fifoIndex }
        func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int { 1 }
    }

    static let sites = 5

    /// The scenario: lane `main` makes the choices (with a step between them, so runs have length);
    /// the verdict follows `fails` over the set of sites that departed; `decoy` fails another oracle
    /// when exactly that set departed.
    static func plan(fails: @escaping @Sendable (Set<Int>) -> Bool, decoy: Set<Int>? = nil) -> RunPlan {
        let scenario = Scenario(
            name: "shrink-minimality", summary: "data choices and a condition over them",
            variants: [.init("only", "the one variant")]
        ) { sim, _ in
            let departed = ValueBox<Set<Int>>([])
            for site in 0..<Self.sites {
                sim.post(on: "main", "choose \(site)") {
                    if sim.choose(2, "site \(site)") == 1 { departed.value.insert(site) }
                }
                sim.post(on: "other", "noise \(site)") {}
            }
            sim.atEnd("condition") { fails(departed.value) ? "departed: \(departed.value.sorted())" : nil }
            if let decoy {
                sim.atEnd("decoy") { departed.value == decoy ? "another failure" : nil }
            }
        }
        return RunPlan.probed(scenario: scenario, variant: "only", strategy: StrategySpec(kind: .random))
    }

    /// The departed sites of a shrunk run, read from its tape (data choices only).
    static func kept(_ outcome: Shrinker.Outcome) -> Set<Int> {
        var sites = Set<Int>()
        for decision in outcome.tape.decisions where decision.kind == .choose && decision.isDeviation {
            let text = outcome.tape.symbols[Int(decision.label.raw)]
            if let number = Int(text.split(separator: " ").last ?? "") { sites.insert(number) }
        }
        return sites
    }

    static func shrink(_ plan: RunPlan) throws -> Shrinker.Outcome {
        let result = plan.run(seed: 7, strategy: DepartEverywhere())
        #expect(result.verdict.isFailure, "every site departed: the run fails")
        let shrinker = Shrinker(plan: plan, seed: 7, target: FailureSignature(result.verdict))
        return try #require(shrinker.shrink(result.tape))
    }

    @Test func everyConjunctionShrinksToExactlyItsSites() throws {
        for required in RuleTable.subsets(of: Self.sites).dropFirst() {
            let need = Set(required)
            let outcome = try Self.shrink(Self.plan { need.isSubset(of: $0) })
            #expect(Self.kept(outcome) == need, "needs \(required): kept \(Self.kept(outcome).sorted())")
            #expect(outcome.result.deviations == need.count, "needs \(required)")
            #expect(outcome.result.verdict.oracle == "condition")
        }
    }

    @Test func everyDisjunctionShrinksToOneOfItsSites() throws {
        for any in RuleTable.subsets(of: Self.sites).dropFirst() {
            let set = Set(any)
            let outcome = try Self.shrink(Self.plan { !$0.isDisjoint(with: set) })
            let kept = Self.kept(outcome)
            #expect(kept.count == 1 && kept.isSubset(of: set), "any of \(any): kept \(kept.sorted())")
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func aThresholdShrinksToExactlyThatManyOfItsSites(_ threshold: Int) throws {
        let pool: Set<Int> = [0, 1, 3, 4]
        let outcome = try Self.shrink(Self.plan { $0.intersection(pool).count >= threshold })
        let kept = Self.kept(outcome)
        #expect(kept.count == threshold && kept.isSubset(of: pool), "at least \(threshold): kept \(kept.sorted())")
    }

    @Test func anotherOraclesFailureOnTheWayIsNeverKept() throws {
        // ddmin's first candidate keeps sites 3 and 4 only: the decoy's failure (another oracle) with
        // fewer departures. The shrinker keeps to the condition's, and ends at its minimum, {0, 1}.
        let outcome = try Self.shrink(Self.plan(fails: { Set([0, 1]).isSubset(of: $0) }, decoy: [3, 4]))
        #expect(outcome.result.verdict.oracle == "condition")
        #expect(Self.kept(outcome) == [0, 1], "kept \(Self.kept(outcome).sorted())")
    }

    @Test func aRunThatDoesNotFailIsNotShrunk() {
        let plan = Self.plan { _ in false }
        let result = plan.run(seed: 7, strategy: DepartEverywhere())
        #expect(!result.verdict.isFailure)
        #expect(Shrinker(plan: plan, seed: 7, target: FailureSignature(.fail(oracle: "condition", message: "x"))).shrink(result.tape) == nil)
    }
}
