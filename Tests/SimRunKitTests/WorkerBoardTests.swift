import SimEngine
import Testing

@testable import SimRunKit

/// Fuzz workers record failures on the shared board: a slot per distinct signature, counted across
/// a worker's restarts, and a line only when the slots are full.
@Suite struct WorkerBoardTests {
    @Test func aSignatureKeepsItsFirstSeedAndCountsOccurrences() throws {
        let board = try WorkerBoard.create(workers: 2, goals: 3)
        var slots = FailureSlots(board: board, worker: 1)
        #expect(record(&slots, board, worker: 1, signature: 77, seed: 5, digest: 500))
        #expect(record(&slots, board, worker: 1, signature: 88, seed: 6, digest: 600))
        #expect(record(&slots, board, worker: 1, signature: 77, seed: 9, digest: 900))
        #expect(
            board.failureSlots(1) == [
                .init(signature: 77, seed: 5, digest: 500, occurrences: 2),
                .init(signature: 88, seed: 6, digest: 600, occurrences: 1),
            ])
        #expect(board.failureSlots(0).isEmpty)
        #expect(board.failures(1) == 3)
        #expect(board.totalFailures == 3)
    }

    @Test func aReplacementWorkerCarriesOnItsPredecessorsSlots() throws {
        let board = try WorkerBoard.create(workers: 1, goals: 0)
        var first = FailureSlots(board: board, worker: 0)
        #expect(record(&first, board, worker: 0, signature: 1, seed: 2, digest: 3))
        // The first worker died; the next one attaches to the same board slot.
        var second = FailureSlots(board: board, worker: 0)
        #expect(record(&second, board, worker: 0, signature: 1, seed: 10, digest: 11))
        #expect(record(&second, board, worker: 0, signature: 4, seed: 12, digest: 13))
        #expect(
            board.failureSlots(0) == [
                .init(signature: 1, seed: 2, digest: 3, occurrences: 2),
                .init(signature: 4, seed: 12, digest: 13, occurrences: 1),
            ])
    }

    @Test func failuresPastTheLastSlotAreCountedAndLeftToTheCaller() throws {
        let board = try WorkerBoard.create(workers: 1, goals: 1)
        var slots = FailureSlots(board: board, worker: 0)
        for signature in 0..<UInt64(WorkerBoard.failureSlots) {
            #expect(record(&slots, board, worker: 0, signature: signature, seed: signature, digest: 0))
        }
        #expect(!record(&slots, board, worker: 0, signature: 1000, seed: 1000, digest: 0))
        // A signature that has a slot still goes on the board.
        #expect(record(&slots, board, worker: 0, signature: 3, seed: 1001, digest: 0))
        #expect(board.failureSlots(0).count == WorkerBoard.failureSlots)
        #expect(board.failures(0) == WorkerBoard.failureSlots + 2)
    }

    @Test func goalsAndRunsDoNotOverlapTheFailureSlots() throws {
        let board = try WorkerBoard.create(workers: 2, goals: 2)
        var slots = FailureSlots(board: board, worker: 0)
        board.addRun(0, reached: [0, 1])
        board.addRun(1, reached: [1])
        #expect(record(&slots, board, worker: 0, signature: 9, seed: 1, digest: 2))
        #expect(board.goalCounts() == [1, 2])
        #expect(board.totalRuns == 2)
        #expect(board.failureSlots(0).first?.occurrences == 1)
    }
}

/// `FailureSlots.record`, callable inside `#expect` (which cannot mutate its operands).
private func record(
    _ slots: inout FailureSlots, _ board: WorkerBoard, worker: Int, signature: UInt64, seed: UInt64, digest: UInt64
) -> Bool {
    slots.record(on: board, worker: worker, signature: signature, seed: seed, digest: digest)
}
