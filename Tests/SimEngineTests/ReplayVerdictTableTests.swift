import SimCore
import SimTestSupport
import Testing

@testable import SimEngine

/// The replay verdict on another variant (or build), as a rule over the whole space of cases it
/// decides: the replayed run's verdict, a schedule problem, every list of up to two unfollowed
/// non-fifo decisions (each of the seven reasons, cancelled or not), whether the run was conclusive,
/// whether the schedule was read back on this build, whether the recording was cut short, and what
/// the race-removed campaign found. The reference is written from the documentation
/// (ReplayingOnOtherCode.md, TraceReplay's and UnfollowedDecision's doc comments), not the code.
@Suite struct ReplayVerdictTableTests {
    static let reasons = ["missing", "vanished", "ordered", "apart", "never-ahead", "site-differs", "unnamed"]

    static var decisions: [UnfollowedDecision] {
        RuleTable.product(reasons, [false, true]).enumerated().map { number, pair in
            UnfollowedDecision(
                number: number + 1, summary: "b/read#1 before a/write#\(number)", reason: pair.0, why: pair.0,
                cancelled: pair.1)
        }
    }

    /// Every list of zero, one or two unfollowed decisions.
    static var lists: [[UnfollowedDecision]] {
        let one = decisions.map { [$0] }
        return [[]] + one + RuleTable.product(decisions, decisions).map { [$0.0, $0.1] }
    }

    /// The documented per-decision rule: `ordered` and `apart` show the race removed; `missing` and
    /// `vanished` only on a schedule read back on this build or when the job that never ran was
    /// cancelled; `never-ahead`, `site-differs` and `unnamed` never.
    static func referenceShowsRemoved(_ decision: UnfollowedDecision, readBack: Bool) -> Bool {
        switch decision.reason {
        case "ordered", "apart": return true
        case "missing", "vanished": return readBack || decision.cancelled
        default: return false
        }
    }

    @Test func eachUnfollowedDecisionShowsTheRaceRemovedByItsReason() {
        let wrong = RuleTable.disagreements(
            RuleTable.product(Self.decisions, [false, true]),
            describe: { "\($0.0.reason) cancelled \($0.0.cancelled), read back \($0.1)" },
            decide: { $0.0.showsRaceRemoved(scheduleReadBack: $0.1) },
            reference: { Self.referenceShowsRemoved($0.0, readBack: $0.1) })
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func theRaceIsRemovedOnlyWhenEveryUnfollowedDecisionShowsIt() {
        let wrong = RuleTable.disagreements(
            RuleTable.product(Self.lists, [false, true]),
            describe: { "\($0.0.map { "\($0.reason)\($0.cancelled ? "+cancelled" : "")" }), read back \($0.1)" },
            decide: { RaceRemoved.applies(to: $0.0, scheduleReadBack: $0.1) },
            reference: { list, readBack in
                // At least one unfollowed, and not one that was simply not followed.
                !list.isEmpty && list.allSatisfy { Self.referenceShowsRemoved($0, readBack: readBack) }
            })
        #expect(wrong.isEmpty, "\(wrong)")
    }

    struct Case: CustomStringConvertible {
        var outcome: Verdict
        var problem: String?
        var unfollowed: [UnfollowedDecision]
        var allFollowed: Bool
        var readBack: Bool
        var truncated: Bool
        var campaignFailures: Int

        var description: String {
            "outcome \(outcome), problem \(problem ?? "none"), unfollowed \(unfollowed.map(\.reason)), "
                + "all followed \(allFollowed), read back \(readBack), truncated \(truncated), "
                + "campaign failures \(campaignFailures)"
        }
    }

    static let campaignFailure = Verdict.fail(oracle: "elsewhere", message: "found by the campaign")

    /// The documented rule for a schedule followed on another variant.
    static func reference(_ c: Case) -> ReplayVerdict {
        // A failure is a failure, whatever was followed.
        if c.outcome.isFailure { return .fail(c.outcome, raceRemoved: nil) }
        // A schedule that does not re-run on its own variant cannot be followed: inconclusive.
        if let problem = c.problem { return .inconclusive(.scheduleProblem(problem)) }
        // A pass counts only if every non-fifo decision was followed...
        let followedAll = c.unfollowed.isEmpty && c.allFollowed
        if followedAll {
            return c.truncated ? .inconclusive(.truncated(eventsCompared: 0)) : .pass(raceRemoved: nil)
        }
        // ... except when the fix removes the race: then a pct campaign on the variant decides.
        let removed =
            !c.unfollowed.isEmpty && c.unfollowed.allSatisfy { referenceShowsRemoved($0, readBack: c.readBack) }
        guard removed else { return .inconclusive(.unfollowed(c.unfollowed)) }
        let evidence = RaceRemoved(
            unfollowed: c.unfollowed, strategy: "pct", seeds: TraceReplay.raceRemovedSeeds,
            failures: c.campaignFailures, firstFailingSeed: c.campaignFailures > 0 ? 3 : nil)
        if c.campaignFailures > 0 { return .fail(campaignFailure, raceRemoved: evidence) }
        return c.truncated ? .inconclusive(.truncated(eventsCompared: 0)) : .pass(raceRemoved: evidence)
    }

    @Test func theVerdictOnAnotherVariantFollowsTheDocumentedRuleInEveryCase() {
        var cases: [Case] = []
        for outcome in [Verdict.pass, .fail(oracle: "no-lost-update", message: "counter is 1")] {
            for problem in [nil, "the schedule does not re-run on its own variant"] as [String?] {
                for unfollowed in Self.lists {
                    for (allFollowed, readBack) in RuleTable.product([true, false], [true, false]) {
                        for (truncated, failures) in RuleTable.product([false, true], [0, 2]) {
                            cases.append(
                                Case(
                                    outcome: outcome, problem: problem, unfollowed: unfollowed,
                                    allFollowed: allFollowed, readBack: readBack, truncated: truncated,
                                    campaignFailures: failures))
                        }
                    }
                }
            }
        }
        var campaignsRun = 0
        var campaignsNeeded = 0
        let wrong = RuleTable.disagreements(
            cases, describe: \.description,
            decide: { c in
                TraceReplay.judgeFollowed(
                    outcome: c.outcome, scheduleProblem: c.problem, unfollowed: c.unfollowed,
                    conclusive: c.unfollowed.isEmpty && c.allFollowed, scheduleReadBack: c.readBack,
                    recordingTruncated: c.truncated
                ) {
                    campaignsRun += 1
                    return TraceReplay.RaceRemovedCampaign(
                        strategy: "pct", failures: c.campaignFailures,
                        first: c.campaignFailures > 0 ? (3, Self.campaignFailure) : nil)
                }
            },
            reference: { c in
                let verdict = Self.reference(c)
                switch verdict {
                case .pass(let evidence?), .fail(_, let evidence?): if evidence.seeds.count > 0 { campaignsNeeded += 1 }
                case .inconclusive(.truncated) where !c.outcome.isFailure && c.problem == nil
                    && !(c.unfollowed.isEmpty && c.allFollowed):
                    campaignsNeeded += 1
                default: break
                }
                return verdict
            })
        #expect(cases.count > 10_000)
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
        // The campaign (500 runs in real use) runs exactly when the rule calls for it, never otherwise.
        #expect(campaignsRun == campaignsNeeded, "campaigns run \(campaignsRun), needed \(campaignsNeeded)")
    }

    @Test func theVerdictsKindsSayWhatTheyClaim() {
        let evidence = RaceRemoved(
            unfollowed: [], strategy: "pct", seeds: 0..<500, failures: 0, firstFailingSeed: nil)
        let all: [(ReplayVerdict, success: Bool, found: Bool)] = [
            (.identical, true, false), (.diverged(atEvent: 3, lines: []), false, true),
            (.pass(raceRemoved: nil), true, false), (.pass(raceRemoved: evidence), true, false),
            (.fail(.fail(oracle: "o", message: "m"), raceRemoved: nil), false, true),
            (.crashed(message: "trap", atEvent: 1), false, true),
            (.inconclusive(.truncated(eventsCompared: 1)), false, false),
            (.inconclusive(.unfollowed([])), false, false), (.inconclusive(.scheduleProblem("p")), false, false),
            (.damaged(message: "d", eventsCompared: 1), false, false),
        ]
        for (verdict, success, found) in all {
            #expect(verdict.isSuccess == success, "\(verdict.name)")
            #expect(verdict.foundSomething == found, "\(verdict.name)")
        }
    }
}
