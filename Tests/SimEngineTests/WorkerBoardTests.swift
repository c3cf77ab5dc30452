import SimCore
import SimScenarios
import Synchronization
import Testing

@testable import SimEngine

/// Fuzz workers record failures on the shared board: a slot per distinct signature, counted across
/// a worker's restarts, and a line only when the slots are full.
@Suite struct WorkerBoardTests {
    @Test func aSignatureKeepsItsFirstSeedAndCountsOccurrences() throws {
        let board = try WorkerBoard.create(workers: 2, goals: 3)
        defer { board.closeDescriptor() }
        board.addFailure(1, index: 5, seed: 5, signature: 77, digest: 500)
        board.addFailure(1, index: 6, seed: 6, signature: 88, digest: 600)
        board.addFailure(1, index: 9, seed: 9, signature: 77, digest: 900)
        #expect(
            board.failureSlots(1) == [
                .init(signature: 77, seed: 5, evidence: .failed(digest: 500), occurrences: 2),
                .init(signature: 88, seed: 6, evidence: .failed(digest: 600), occurrences: 1),
            ])
        #expect(board.failureSlots(0).isEmpty)
        #expect(board.failures(1) == 3)
        #expect(board.totalFailures == 3)
        let tally = board.tally()
        #expect(tally.findings.entries.map(\.seed) == [5, 6])
        #expect(tally.findings.failingRuns == 3)
    }

    @Test func aReplacementWorkerCarriesOnItsPredecessorsSlots() throws {
        let board = try WorkerBoard.create(workers: 1, goals: 0)
        defer { board.closeDescriptor() }
        board.addFailure(0, index: 2, seed: 2, signature: 1, digest: 3)
        // The first worker died; the next one maps the same board and goes on in the same slots.
        let second = try WorkerBoard.attach(descriptor: board.descriptor, workers: 1, goals: 0, overflow: { _ in })
        second.addFailure(0, index: 10, seed: 10, signature: 1, digest: 11)
        second.addFailure(0, index: 12, seed: 12, signature: 4, digest: 13)
        #expect(
            board.failureSlots(0) == [
                .init(signature: 1, seed: 2, evidence: .failed(digest: 3), occurrences: 2),
                .init(signature: 4, seed: 12, evidence: .failed(digest: 13), occurrences: 1),
            ])
    }

    @Test func failuresPastTheLastSlotAreCountedAndPrinted() throws {
        let creator = try WorkerBoard.create(workers: 1, goals: 1)
        defer { creator.closeDescriptor() }
        let printed = Mutex<[String]>([])
        let board = try WorkerBoard.attach(
            descriptor: creator.descriptor, workers: 1, goals: 1,
            overflow: { line in printed.withLock { $0.append(line) } })
        for signature in 0..<UInt64(WorkerBoard.failureSlots) {
            board.addFailure(0, index: signature, seed: signature, signature: signature, digest: 0)
        }
        #expect(printed.withLock { $0 }.isEmpty)
        board.addFailure(0, index: 1000, seed: 1000, signature: 1000, digest: 7)
        #expect(printed.withLock { $0 } == [FailureLine(index: 1000, seed: 1000, signature: 1000, digest: 7).text])
        // A signature that has a slot still goes on the board.
        board.addFailure(0, index: 1001, seed: 1001, signature: 3, digest: 0)
        #expect(printed.withLock { $0 }.count == 1)
        #expect(board.failureSlots(0).count == WorkerBoard.failureSlots)
        #expect(board.failures(0) == WorkerBoard.failureSlots + 2)
    }

    @Test func goalsAndRunsDoNotOverlapTheFailureSlots() throws {
        let plan = RunPlan.probed(
            scenario: LostInputNavigation.scenario, variant: "buggy", strategy: StrategySpec(kind: .fifo))
        let goals = plan.goals().count
        let board = try WorkerBoard.create(workers: 2, goals: goals)
        defer { board.closeDescriptor() }
        let result = plan.run(seed: 0, strategy: plan.makeStrategy())
        board.addRun(0, seed: 0, result)
        board.addRun(1, seed: 1, result)
        board.addFailure(0, index: 0, seed: 1, signature: 9, digest: 2)
        var expected = GoalTally(goals: goals)
        expected.count(result)
        expected.count(result)
        #expect(board.goalCounts() == expected.counts(for: goals))
        #expect(board.goalCounts().contains { $0 == 2 }, "the fifo run reaches a goal")
        #expect(board.totalRuns == 2)
        #expect(board.failureSlots(0).first?.occurrences == 1)
    }

    @Test func theStopLineOnlyGoesDown() throws {
        let board = try WorkerBoard.create(workers: 1, goals: 0)
        defer { board.closeDescriptor() }
        #expect(board.stopSeed == .max)
        board.lowerStopSeed(to: 40)
        board.lowerStopSeed(to: 70)
        #expect(board.stopSeed == 40)
        board.lowerStopSeed(to: 3)
        #expect(board.stopSeed == 3)
    }

    @Test func chunksAreClaimedInOrderAndRemembered() throws {
        let board = try WorkerBoard.create(workers: 2, goals: 0)
        defer { board.closeDescriptor() }
        #expect(board.claimChunk(1) == 0..<SeedSpace.chunkSize)
        #expect(board.claimChunk(0) == SeedSpace.chunkSize..<(2 * SeedSpace.chunkSize))
        #expect(board.chunkEnd(1) == SeedSpace.chunkSize)
        #expect(board.chunkEnd(0) == 2 * SeedSpace.chunkSize)
    }
}
