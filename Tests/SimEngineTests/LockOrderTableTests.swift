import SimCore
import Testing

@testable import SimEngine

/// A campaign's lock order (issue #41): each pair of lock classes is kept once with its lowest seed,
/// whatever order the runs report in, and two opposite pairs are one potential deadlock.
@Suite struct LockOrderTableTests {
    func edge(_ from: String, _ to: String, lane: String = "t", decisions: Int = 0) -> LockOrderEdge {
        LockOrderEdge(
            from: from, to: to, fromSite: "lock \(from).use()", toSite: "lock \(to).use()", lane: lane,
            decisionsBefore: decisions)
    }

    @Test func oppositeOrdersAreOnePotentialDeadlockWithTheLowestSeeds() {
        var table = LockOrderTable()
        table.add([edge("A", "B")], seed: 9)
        table.add([edge("B", "A", lane: "u")], seed: 4)
        table.add([edge("A", "B", lane: "v")], seed: 2)
        table.add([edge("A", "C")], seed: 1)
        let potential = table.potentialDeadlocks
        #expect(potential.count == 1)
        #expect(potential.first?.first.edge.from == "A" && potential.first?.first.seed == 2)
        #expect(potential.first?.second.edge.from == "B" && potential.first?.second.seed == 4)
        #expect(
            potential.first?.description
                == "A and B are taken in both orders: seed 2 took lock A.use() then lock B.use() (v); seed 4 took lock B.use() then lock A.use() (u)"
        )
    }

    @Test func theSameRunsInAnyOrderGiveTheSameTable() {
        let runs: [(UInt64, [LockOrderEdge])] = [
            (5, [edge("A", "B")]), (3, [edge("B", "A")]), (8, [edge("B", "C"), edge("C", "B")]), (1, [edge("C", "A")]),
        ]
        var forward = LockOrderTable()
        for (seed, edges) in runs { forward.add(edges, seed: seed) }
        var backward = LockOrderTable()
        for (seed, edges) in runs.reversed() { backward.add(edges, seed: seed) }
        var merged = LockOrderTable()
        var half = LockOrderTable()
        for (seed, edges) in runs.prefix(2) { merged.add(edges, seed: seed) }
        for (seed, edges) in runs.dropFirst(2) { half.add(edges, seed: seed) }
        merged.merge(half)
        #expect(forward.sightings == backward.sightings && forward.sightings == merged.sightings)
        #expect(forward.potentialDeadlocks.map(\.description) == ["A and B are taken in both orders: seed 5 took lock A.use() then lock B.use() (t); seed 3 took lock B.use() then lock A.use() (t)", "B and C are taken in both orders: seed 8 took lock B.use() then lock C.use() (t); seed 8 took lock C.use() then lock B.use() (t)"])
    }

    @Test func oneWayOrdersAndSelfEdgesAreNoDeadlock() {
        var table = LockOrderTable()
        table.add([edge("A", "B"), edge("B", "C"), edge("A", "A")], seed: 0)
        #expect(table.potentialDeadlocks.isEmpty)
    }

    @Test func aWorkerLineRoundTrips() {
        let sighting = LockOrderSighting(edge: edge("lock made in X.init()", "a task's status lock", decisions: 7), seed: 42)
        let line = LockOrderLine(sighting).text
        #expect(LockOrderLine(parsing: Array(line.utf8)[...])?.sighting == sighting)
        #expect(LockOrderLine(parsing: Array("order\t1\tx".utf8)[...]) == nil)
        #expect(LockOrderLine(parsing: Array("fail 1 2 3 4".utf8)[...]) == nil)
    }
}
