import Foundation
import SimCapture
import SimCore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Carrier watchdog", .serialized)
struct CarrierWatchdogTests {
    /// A job holds a `pthread_rwlock_t` (not interposed: invisible to simrun) across an `NSLock`
    /// preemption point; a job that then takes the same lock blocks in the kernel while holding the
    /// turn. The watchdog must end the run with a verdict that says so, in bounded time.
    @Test("a carrier stuck in the kernel holding the turn is reported within a bounded time")
    func stuckCarrierIsReported() throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        let saved = Carriers.watchdogTimeout
        Carriers.watchdogTimeout = .milliseconds(300)
        defer { Carriers.watchdogTimeout = saved }
        var reported = 0
        for seed in UInt64(1)...8 {
            let rwlock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
            pthread_rwlock_init(rwlock, nil)
            let lock = NSLock()
            let simulation = Simulation(seed: seed, strategy: RandomStrategy())
            simulation.carrierMode = .preemptLocks
            simulation.post(on: "holder", "hold") {
                pthread_rwlock_wrlock(rwlock)
                lock.lock()  // a preemption point inside the invisible lock's critical section
                lock.unlock()
                pthread_rwlock_unlock(rwlock)
            }
            simulation.post(on: "taker", "take") {
                pthread_rwlock_wrlock(rwlock)
                pthread_rwlock_unlock(rwlock)
            }
            let started = ContinuousClock.now
            let result = simulation.run()
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(10), "seed \(seed) took \(elapsed)")
            if case .deadlock(let message) = result.verdict, message.contains("blocked outside the model") {
                reported += 1
                // The holder is abandoned paused, holding the lock: the lock stays allocated.
            } else {
                #expect(result.verdict == .pass, "seed \(seed): \(result.verdict)")
                pthread_rwlock_destroy(rwlock)
                rwlock.deallocate()
            }
        }
        #expect(reported > 0, "no seed ran the taker while the holder was paused")
    }

    /// The same shape with a `Synchronization.Mutex`: its contention is modelled (mutex.c), so the
    /// taker parks on the lock word instead of blocking in the kernel, and mutual exclusion holds.
    @Test("a Mutex held across a preemption point parks its contender; no run blocks outside the model")
    func mutexContentionParks() throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        final class Seen: @unchecked Sendable {
            var entered = false
            var released = false
            var holderInside: Bool { entered && !released }
            var overlaps = 0
            var contended = false
        }
        var totalContended = 0
        for seed in UInt64(1)...16 {
            let mutex = Mutex<Int>(0)
            let lock = NSLock()
            let seen = Seen()
            let simulation = Simulation(seed: seed, strategy: RandomStrategy())
            simulation.carrierMode = .preemptLocks
            simulation.post(on: "holder", "hold") {
                mutex.withLock { value in
                    seen.entered = true
                    lock.lock()  // a preemption point inside the Mutex's critical section
                    value += 1
                    lock.unlock()
                }  // the unlock's own point comes before the release: no point between it and the next line
                seen.released = true
            }
            simulation.post(on: "taker", "take") {
                if seen.holderInside { seen.contended = true }
                mutex.withLock {
                    if seen.holderInside { seen.overlaps += 1 }
                    $0 += 1
                }
            }
            let result = simulation.run()
            #expect(result.verdict == .pass, "seed \(seed): \(result.verdict)")
            #expect(mutex.withLock { $0 } == 2, "seed \(seed)")
            #expect(seen.overlaps == 0, "seed \(seed): the taker held the Mutex while the holder did")
            totalContended += seen.contended ? 1 : 0
        }
        #expect(totalContended > 0, "no seed ran the taker while the holder held the Mutex")
    }
}
