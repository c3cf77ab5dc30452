import Foundation
import SimTestSupport
import Testing

/// A reused `OperationQueue` whose `cancelAllOperations()` misses a request that already ran (issue
/// #40): found by the default fuzz on the one-thread path (the queue's operations, the hop back to
/// main and its timer are all captured), and its fix is clean.
@Suite(.serialized) struct OperationQueueScenarioTests {
    @Test func aReusedOperationQueueRaceIsFoundAndItsFixIsClean() throws {
        let buggy = try SimrunProcess.run(["fuzz", "operation-queue-search", "--no-show", "--no-shrink"])
        #expect(buggy.status == 1, "\(buggy.stdout)")
        #expect(
            buggy.stdout.contains("results-match-query: the field shows \"swift\" but the list shows results(sw)"),
            "\(buggy.stdout)")
        let fixed = try SimrunProcess.run(
            ["fuzz", "operation-queue-search", "--variant", "fixed", "--seeds", "0..<2000", "-q"])
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }
}
