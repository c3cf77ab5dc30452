import Foundation
import SimCore
import Synchronization
import Testing

@Suite("Carrier watchdog", .serialized)
struct CarrierWatchdogTests {
    /// A job holds a `Synchronization.Mutex` (inlined atomics and a futex: invisible to simrun) across
    /// an `NSLock` preemption point; a job that then takes the same Mutex blocks in the kernel while
    /// holding the turn. The watchdog must end the run with a verdict that says so, in bounded time.
    @Test("a carrier stuck in the kernel holding the turn is reported within a bounded time")
    func stuckCarrierIsReported() throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        let saved = Carriers.watchdogTimeout
        Carriers.watchdogTimeout = .milliseconds(300)
        defer { Carriers.watchdogTimeout = saved }
        var reported = 0
        for seed in UInt64(1)...8 {
            let mutex = Mutex<Int>(0)
            let lock = NSLock()
            let simulation = Simulation(seed: seed, strategy: RandomStrategy())
            simulation.carrierMode = .preemptLocks
            simulation.post(on: "holder", "hold") {
                mutex.withLock { value in
                    lock.lock()  // a preemption point inside the Mutex's critical section
                    value += 1
                    lock.unlock()
                }
            }
            simulation.post(on: "taker", "take") { mutex.withLock { $0 += 1 } }
            let started = ContinuousClock.now
            let result = simulation.run()
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(10), "seed \(seed) took \(elapsed)")
            if case .deadlock(let message) = result.verdict, message.contains("blocked outside the model") {
                reported += 1
            } else {
                #expect(result.verdict == .pass, "seed \(seed): \(result.verdict)")
            }
        }
        #expect(reported > 0, "no seed ran the taker while the holder was paused")
    }
}
