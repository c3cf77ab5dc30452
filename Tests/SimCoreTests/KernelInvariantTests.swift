import Foundation
import SimTestSupport
import Testing

@testable import SimCore

/// Each invariant the kernel asserts traps when it is broken. A trap ends the process, so each one is
/// broken in a child process (a Swift Testing exit test: the test binary runs the closure alone) and
/// the child's standard error must name the invariant. Debug builds only: release builds compile
/// `assert` out (the `precondition`s would still trap, but the suite is about the debug checks).
@Suite(.enabled(if: isDebugBuild, "assertions are compiled out of release builds"))
struct KernelInvariantTests {
    @Test func aJobQueueWithItsHeadOutOfRangeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var queue = JobQueue()
            queue.head = queue.capacity
            queue.append({}, JobMeta(label: .empty, ordinal: 1, seq: 1, cause: 0))
        }
        expectStandardError(result, contains: "JobQueue invariant broken")
    }

    @Test func readingTheHeadOfAnEmptyJobQueueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let queue = JobQueue()
            _ = queue.firstMeta
        }
        expectStandardError(result, contains: "JobQueue: firstMeta of an empty lane")
    }

    @Test func anOrdinalCounterListingMoreThanItsLimitTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var counter = OrdinalCounter()
            counter.listed = OrdinalCounter.listLimit + 1
            _ = counter.next(.empty)
        }
        expectStandardError(result, contains: "OrdinalCounter invariant broken")
    }

    @Test func anOrdinalThatWouldWrapAroundTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var counter = OrdinalCounter()
            _ = counter.next(.empty)
            counter.counts[0] = .max
            _ = counter.next(.empty)
        }
        expectStandardError(result, contains: "OrdinalCounter: ordinal overflow")
    }

    @Test func aLaneIndexOutsideTheLaneTableTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
            _ = simulation.lane("only")
            _ = simulation.lanes[1].name
        }
        expectStandardError(result, contains: "LaneTable: lane index 1 out of 0..<1")
    }

    @Test func postingOnALaneOfAnotherSimulationTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let other = Simulation(seed: 0, strategy: FIFOStrategy())
            _ = other.lane("a")
            let foreign = other.lane("b")
            let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
            _ = simulation.lane("a")
            simulation.post(foreign, .empty) {}
        }
        expectStandardError(result, contains: "lane index 1 is not a lane of this simulation")
    }

    @Test func twoLanesWithTheSamePCTPriorityTrap() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
            let a = simulation.lane("a")
            let b = simulation.lane("b")
            let pct = PCTStrategy(depth: 1)
            pct.start(seed: 1, symbols: simulation.symbols)
            pct.priorities[a.name] = 7
            pct.priorities[b.name] = 7
            _ = pickOnce(pct, lanes: [a, b], step: 0, symbols: simulation.symbols)
        }
        expectStandardError(result, contains: "PCT invariant broken: two lanes share priority 7")
    }

    @Test func aRepeatedPCTChangePointTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
            let lanes = [simulation.lane("a"), simulation.lane("b"), simulation.lane("c")]
            let pct = PCTStrategy(depth: 3, estimatedSteps: 10)
            pct.start(seed: 1, symbols: simulation.symbols)
            pct.changePoints = [2, 2]
            _ = pickOnce(pct, lanes: lanes, step: 5, symbols: simulation.symbols)
        }
        expectStandardError(result, contains: "PCT invariant broken: change points repeat or are unsorted")
    }

    @Test func postingFromAnotherThreadTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
            let lane = simulation.lane("main")
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                simulation.post(lane, .empty) {}
                done.signal()
            }
            thread.start()
            done.wait()
        }
        expectStandardError(result, contains: "Simulation.post called from another thread")
    }

    @Test func runningFromAnotherThreadTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = simulation.run()
                done.signal()
            }
            thread.start()
            done.wait()
        }
        expectStandardError(result, contains: "Simulation.run called from another thread")
    }
}

/// The invariants hold where nothing breaks them (these run in every build).
@Suite struct KernelInvariantHoldsTests {
    @Test func pctChangePointsAreDistinctEvenWhenTheyMustTakeEveryStep() {
        for seed in 0..<200 {
            let pct = PCTStrategy(depth: 5, estimatedSteps: 4)
            pct.start(seed: UInt64(seed), symbols: SymbolTable())
            #expect(pct.changePoints == [0, 1, 2, 3], "seed \(seed): \(pct.changePoints)")
            let wide = PCTStrategy(depth: 4, estimatedSteps: 6)
            wide.start(seed: UInt64(seed), symbols: SymbolTable())
            #expect(wide.changePoints.count == 3 && Set(wide.changePoints).count == 3, "seed \(seed)")
            #expect(wide.changePoints == wide.changePoints.sorted())
        }
    }

    @Test func pctGivesEveryLaneItsOwnPriority() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let lanes = (0..<64).map { simulation.lane("lane.\($0)") }
        for seed in 0..<50 {
            let pct = PCTStrategy(depth: 3, estimatedSteps: 1000)
            pct.start(seed: UInt64(seed), symbols: simulation.symbols)
            _ = pickOnce(pct, lanes: lanes, step: 0, symbols: simulation.symbols)
            let assigned = lanes.compactMap { pct.priorities[$0.name] }
            #expect(assigned.count == lanes.count && Set(assigned).count == lanes.count, "seed \(seed)")
        }
    }

    @Test func aSimulationRunsOnTheThreadThatMadeItWhateverThatThreadIs() {
        // Made and driven on a thread of its own (as fuzz workers do): no trap.
        let verdict = ValueBox<Verdict?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let log = OrderLog()
            let result = simulate(seed: 3, strategy: RandomStrategy()) { threeLanes($0, log: log) }
            verdict.value = result.verdict
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(verdict.value == .pass)
    }
}

/// One `pick` over the heads of `lanes` (one candidate per lane, posted in lane order).
func pickOnce(_ strategy: any Strategy, lanes: [LaneID], step: Int, symbols: SymbolTable) -> Int {
    let candidates = lanes.enumerated().map { index, lane in
        Candidate(
            lane: lane.name, label: .empty, ordinal: 1, seq: UInt64(index + 1), isTimer: false,
            laneIndex: lane.index, timerSlot: -1)
    }
    return candidates.withUnsafeBufferPointer { buffer in
        strategy.pick(
            ReadySet(buffer: buffer, fifoIndex: 0, continuingIndex: nil, step: step, symbols: symbols))
    }
}

/// The ready list's invariants (debug builds): a lane is listed once, in lane order, and the entry
/// taken is the lane's.
@Suite(.enabled(if: isDebugBuild, "assertions are compiled out of release builds"))
struct ReadyListInvariantTests {
    @Test func aLaneListedTwiceTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
            let a = simulation.lane("a")
            simulation.post(a, .empty) {}
            _ = simulation.collectCandidates()
            // The lane is listed already; telling the list it just became ready lists it twice.
            simulation.laneGainedJob(a.index)
        }
        expectStandardError(result, contains: "ready list: lane 0 listed twice or out of lane order")
    }

    @Test func takingAnotherLanesEntryTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
            let a = simulation.lane("a")
            let b = simulation.lane("b")
            simulation.post(a, .empty) {}
            simulation.post(b, .empty) {}
            _ = simulation.collectCandidates()
            simulation.laneLostHead(at: 0, lane: Int(b.index))
        }
        expectStandardError(result, contains: "ready list: entry 0 of 2 is not lane 1")
    }
}
