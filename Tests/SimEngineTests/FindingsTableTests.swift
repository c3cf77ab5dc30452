import Foundation
import SimEngine
import Testing

/// The findings table: one entry per signature, the lowest seed and its evidence kept, occurrences
/// summed, merges independent of order, and the first-failure rule.
@Suite struct FindingsTableTests {
    @Test func aSignatureKeepsItsLowestSeedAndCountsEveryRun() {
        var table = FindingsTable<String>()
        table.record(signature: 1, seed: 30, evidence: "thirty")
        table.record(signature: 2, seed: 40, evidence: "forty")
        table.record(signature: 1, seed: 10, evidence: "ten")
        table.record(signature: 1, seed: 20, evidence: "twenty")
        #expect(table.count == 2)
        #expect(table.failingRuns == 4)
        #expect(
            table.entries == [
                .init(signature: 1, seed: 10, evidence: "ten", occurrences: 3),
                .init(signature: 2, seed: 40, evidence: "forty", occurrences: 1),
            ])
    }

    @Test func mergingGivesTheTableOfAllRunsInAnyOrder() {
        let runs: [(signature: UInt64, seed: UInt64)] = [(5, 9), (6, 3), (5, 2), (7, 11), (6, 1), (5, 4), (7, 8)]
        var whole = FindingsTable<UInt64>()
        for run in runs { whole.record(signature: run.signature, seed: run.seed, evidence: run.seed * 100) }
        var left = FindingsTable<UInt64>()
        var right = FindingsTable<UInt64>()
        for (position, run) in runs.enumerated() {
            if position % 2 == 0 {
                left.record(signature: run.signature, seed: run.seed, evidence: run.seed * 100)
            } else {
                right.record(signature: run.signature, seed: run.seed, evidence: run.seed * 100)
            }
        }
        #expect(left.merging(right).entries == whole.entries)
        #expect(right.merging(left).entries == whole.entries)
        #expect(whole.entries.map(\.seed) == [1, 2, 8], "lowest seed first")
        #expect(whole.merging(FindingsTable()).entries == whole.entries)
    }

    @Test func onEqualSeedsTheEntryAlreadyThereStays() {
        var table = FindingsTable<String>()
        table.record(signature: 1, seed: 5, evidence: "first")
        table.record(signature: 1, seed: 5, evidence: "second")
        #expect(table.first == .init(signature: 1, seed: 5, evidence: "first", occurrences: 2))
    }

    @Test func theFirstFailureRuleKeepsTheLowestSeedOnce() {
        var table = FindingsTable<String>()
        table.record(signature: 1, seed: 50, evidence: "a")
        table.record(signature: 2, seed: 12, evidence: "b", occurrences: 4)
        table.record(signature: 3, seed: 90, evidence: "c")
        let first = table.keepingFirstFailure()
        #expect(first.entries == [.init(signature: 2, seed: 12, evidence: "b", occurrences: 1)])
        #expect(first.failingRuns == 1)
        #expect(FindingsTable<String>().keepingFirstFailure().isEmpty)
    }

    @Test func aTableSurvivesEncodingAndMergesAfterwards() throws {
        var shardOne = FindingsTable<String>()
        shardOne.record(signature: 4, seed: 30, evidence: "x")
        shardOne.record(signature: 9, seed: 7, evidence: "y", occurrences: 2)
        var shardTwo = FindingsTable<String>()
        shardTwo.record(signature: 4, seed: 3, evidence: "z")
        let decoded = try JSONDecoder().decode(
            FindingsTable<String>.self, from: JSONEncoder().encode(shardOne))
        #expect(decoded.entries == shardOne.entries)
        #expect(
            decoded.merging(shardTwo).entries == [
                .init(signature: 4, seed: 3, evidence: "z", occurrences: 2),
                .init(signature: 9, seed: 7, evidence: "y", occurrences: 2),
            ])
    }
}
