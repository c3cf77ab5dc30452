import SimTestSupport
import Testing

@testable import SimCapture
@testable import SimCore

/// `CarrierSet`, the run on carriers (DESIGN §11), by name: the same picks as the one-thread loop,
/// made by whichever carrier holds the turn; its own state is the run's and ends with it.
@Suite struct CarrierSetTests {
    /// Three lanes of jobs that each record where they ran, under `carrierMode`.
    private static func run(_ mode: CarrierMode, seed: UInt64) -> (result: RunResult, order: [String]) {
        let log = OrderLog()
        let result = simulate(seed: seed, strategy: RandomStrategy()) { sim in
            sim.carrierMode = mode
            for lane in ["a", "b", "c"] {
                for step in 1...4 {
                    sim.post(on: lane, "\(lane)\(step)") { log.append("\(lane)\(step)") }
                }
            }
        }
        return (result, log.entries)
    }

    @Test(arguments: [CarrierMode.carriers, .preemptLocks], [UInt64(1), 7, 42])
    func theCarriersMakeTheSamePicksAsOneThread(_ mode: CarrierMode, _ seed: UInt64) {
        let here = Self.run(.off, seed: seed)
        let carried = Self.run(mode, seed: seed)
        #expect(carried.result.verdict == .pass, "\(carried.result.verdict)")
        #expect(carried.order == here.order)
        #expect(carried.result.scheduleDigest == here.result.scheduleDigest)
        #expect(carried.result.steps == here.result.steps)
    }

    @Test func theCarrierSetIsTheRunsWhileItRunsAndGoneAfter() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        simulation.carrierMode = .carriers
        let seen = ValueBox(false)
        simulation.post(on: "worker", "look") {
            // The job runs on a carrier, which holds the run's turn.
            seen.value = simulation.carrierSet != nil && Carriers.currentSimulation === simulation
        }
        #expect(simulation.run().verdict == .pass)
        #expect(seen.value, "the job ran on the run's carriers")
        #expect(simulation.carrierSet == nil, "the carriers are released when the run ends")
    }
}
