import SimCore
import SimScenarios
import SimTestSupport
import Testing

@testable import SimEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The invariants the campaign's shared state asserts trap when broken, each in a child process (a
/// Swift Testing exit test), and the child's standard error names the invariant.
@Suite struct EngineInvariantTests {
    /// A worker number outside the board reads another worker's words or past the mapping: it traps
    /// in every build (a `precondition`).
    @Test func aWorkerOutsideTheBoardTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let board = try WorkerBoard.create(workers: 2, goals: 0)
            board.setInFlight(2, 0)
        }
        expectStandardError(result, contains: "WorkerBoard: worker 2 of 2")
    }

    @Test func theLastSeedIndexCannotBeInFlight() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let board = try WorkerBoard.create(workers: 1, goals: 0)
            board.setInFlight(0, .max)
        }
        expectStandardError(result, contains: "WorkerBoard: seed index")
    }

    /// A worker resumes at most the rest of one chunk a dead predecessor claimed.
    @Test func resumingMoreThanOneChunkTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let plan = RunPlan.probed(scenario: CounterRace.scenario, variant: "buggy", strategy: .uniformSampling)
            let worker = CampaignWorker(plan: plan, space: SeedSpace(seeds: 0..<1_000), keepGoing: true, deadline: nil)
            worker.run(on: ThreadBoard(workers: 1, goals: 0), worker: 0, resume: 0..<65)
        }
        expectStandardError(result, contains: "CampaignWorker: resume 0..<65 is more than one chunk of 64")
    }

    /// Debug builds also check that a worker's claimed chunks only move forward.
    @Test(.enabled(if: isDebugBuild, "assertions are compiled out of release builds"))
    func aChunkClaimedBehindTheWorkerTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let plan = RunPlan.probed(scenario: CounterRace.scenario, variant: "fixed", strategy: .uniformSampling)
            let worker = CampaignWorker(plan: plan, space: SeedSpace(seeds: 0..<1_000), keepGoing: true, deadline: nil)
            // Resumes 100..<120, then the board hands out chunk 0..<64: behind what it ran.
            worker.run(on: ThreadBoard(workers: 1, goals: 0), worker: 0, resume: 100..<120)
        }
        expectStandardError(result, contains: "CampaignWorker: chunk 0..<64 claimed after indices up to 120")
    }

    /// The board checks its failure count (debug builds): a count past the slots is a broken board
    /// (here another process's write into the shared file: worker 0's count is word 8 + 3).
    @Test(.enabled(if: isDebugBuild, "assertions are compiled out of release builds"))
    func aFailureCountPastTheSlotsTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let board = try WorkerBoard.create(workers: 1, goals: 0)
            for signature in 0...UInt64(WorkerBoard.failureSlots) {
                board.addFailure(0, index: signature, seed: signature, signature: signature, digest: 0)
            }
            var broken = UInt64(WorkerBoard.failureSlots + 1)
            _ = withUnsafeBytes(of: &broken) { pwrite(board.descriptor, $0.baseAddress, 8, 11 * 8) }
            board.addFailure(0, index: 99, seed: 99, signature: 99, digest: 0)
        }
        expectStandardError(result, contains: "WorkerBoard: worker 0 counts 33 of 32 failure slots")
    }
}
