import SimCore

/// How many runs reached each `sometimes` coverage goal, by position in declaration order. Grows
/// when a run declares more goals than the first did (`reach` of an undeclared goal adds one as it
/// runs); a campaign reports the goals its plan declared.
package struct GoalTally: Sendable, Equatable {
    package private(set) var counts: [Int] = []

    package init(goals: Int = 0) { counts = Array(repeating: 0, count: goals) }

    /// Counts the goals `result` reached.
    package mutating func count(_ result: RunResult) {
        if counts.count < result.goals.count {
            counts += Array(repeating: 0, count: result.goals.count - counts.count)
        }
        Self.forEachReached(in: result) { counts[$0] += 1 }
    }

    /// Adds another tally (another worker's).
    package mutating func add(_ other: GoalTally) {
        if counts.count < other.counts.count { counts += Array(repeating: 0, count: other.counts.count - counts.count) }
        for index in other.counts.indices { counts[index] += other.counts[index] }
    }

    /// The counts of the first `goals` goals (zero for any no run reached).
    package func counts(for goals: Int) -> [Int] {
        (0..<goals).map { $0 < counts.count ? counts[$0] : 0 }
    }

    /// Calls `body` with the position of each goal `result` reached (no allocation: once per run).
    package static func forEachReached(in result: RunResult, _ body: (Int) -> Void) {
        for goal in result.reachedGoals {
            if let position = result.goals.firstIndex(of: goal) { body(position) }
        }
    }
}
