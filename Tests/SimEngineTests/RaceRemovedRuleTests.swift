import SimEngine
import Testing

/// The "fix removes the race" rule as its documentation states it (`UnfollowedDecision`,
/// `RaceRemoved.applies(to:scheduleReadBack:)`), checked over every reason, both ways of reading the
/// schedule, cancelled or not, and mixes of decisions (issue #43).
@Suite struct RaceRemovedRuleTests {
    static let reasons = ["missing", "vanished", "ordered", "apart", "never-ahead", "site-differs", "unnamed"]

    /// The rule, written from the documentation.
    static func expected(_ reason: String, readBack: Bool, cancelled: Bool) -> Bool {
        switch reason {
        case "ordered", "apart": return true
        case "missing", "vanished": return readBack || cancelled
        default: return false
        }
    }

    static func decision(_ number: Int, _ reason: String, cancelled: Bool = false) -> UnfollowedDecision {
        UnfollowedDecision(number: number, summary: "s", reason: reason, why: "w", cancelled: cancelled)
    }

    @Test func eachDecisionShowsTheRaceRemovedExactlyAsDocumented() {
        for reason in Self.reasons {
            for readBack in [false, true] {
                for cancelled in [false, true] {
                    let decision = Self.decision(1, reason, cancelled: cancelled)
                    #expect(
                        decision.showsRaceRemoved(scheduleReadBack: readBack)
                            == Self.expected(reason, readBack: readBack, cancelled: cancelled),
                        "\(reason), read back \(readBack), cancelled \(cancelled)")
                }
            }
        }
    }

    @Test func everyPairOfDecisionsAppliesOnlyWhenBothShowIt() {
        for first in Self.reasons {
            for second in Self.reasons {
                for readBack in [false, true] {
                    let decisions = [Self.decision(1, first), Self.decision(2, second)]
                    let both =
                        Self.expected(first, readBack: readBack, cancelled: false)
                        && Self.expected(second, readBack: readBack, cancelled: false)
                    #expect(
                        RaceRemoved.applies(to: decisions, scheduleReadBack: readBack) == both,
                        "\(first) + \(second), read back \(readBack)")
                }
            }
        }
        #expect(!RaceRemoved.applies(to: [], scheduleReadBack: true), "nothing unfollowed: a replay, not a campaign")
    }
}
