import Foundation
import SimCapture
import SimCore
import SimScenarios
import Testing

@Suite("Carriers and lock preemption")
struct CarrierPreemptionTests {
    let scenario = NSLockLostCancel.scenario

    @Test("the lost cancellation is found with lock preemption and never without")
    func foundOnlyWithPreemption() throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        var foundWith = 0
        var foundWithout = 0
        for seed in UInt64(1)...12 {
            let preempting = scenario.running(on: .preemptLocks)
                .run(variant: "buggy", seed: seed, strategy: RandomStrategy())
            if preempting.verdict.isFailure { foundWith += 1 }
            let plain = scenario.run(variant: "buggy", seed: seed, strategy: RandomStrategy())
            if plain.verdict.isFailure { foundWithout += 1 }
            let carriers = scenario.running(on: .carriers).run(variant: "buggy", seed: seed, strategy: RandomStrategy())
            #expect(carriers.verdict == .pass, "seed \(seed) on carriers without preemption: \(carriers.verdict)")
        }
        print(
            "found with \(foundWith) without \(foundWithout) lockPoints \(Carriers.lockPoints) threads \(Carriers.threads)"
        )
        #expect(foundWith > 0)
        #expect(foundWithout == 0)
    }

    @Test("the fixed variant passes with lock preemption")
    func fixedPasses() {
        for seed in UInt64(1)...12 {
            let result = scenario.running(on: .preemptLocks).run(
                variant: "fixed", seed: seed, strategy: RandomStrategy())
            #expect(result.verdict == .pass, "seed \(seed): \(result.verdict)")
        }
    }

    @Test("a preempting run is the same run twice: digest and decisions")
    func deterministic() {
        for seed in UInt64(1)...6 {
            let first = scenario.running(on: .preemptLocks).run(
                variant: "buggy", seed: seed, strategy: RandomStrategy())
            let second = scenario.running(on: .preemptLocks).run(
                variant: "buggy", seed: seed, strategy: RandomStrategy())
            #expect(first.digest == second.digest)
            #expect(first.tape == second.tape)
            #expect(first.verdict == second.verdict)
        }
    }
}
