import SimCapture
import SimCore
import Testing

/// An actor whose increment reads, awaits, then writes: the classic lost update across an `await`.
actor RacyCounter {
    var value = 0
    func read() -> Int { value }
    func write(_ newValue: Int) { value = newValue }
}

/// Two tasks increment the counter through a read-await-write; returns the final value and the digest.
func runCounterTasks(seed: UInt64, strategy: any Strategy = RandomStrategy()) -> (Int, RunResult) {
    let simulation = Simulation(seed: seed, strategy: strategy)
    let counter = RacyCounter()
    let box = ResultBox()
    for name in ["left", "right"] {
        simulation.spawn(name) {
            let seen = await counter.read()
            await Task.yield()
            await counter.write(seen + 1)
            box.value = await counter.read()
        }
    }
    let result = simulation.run()
    return (box.value, result)
}

final class ResultBox: @unchecked Sendable { var value = 0 }

@Suite struct AsyncSchedulingTests {
    @Test func tasksInterleaveDifferentlyForDifferentSeeds() {
        var finals = Set<Int>()
        var digests = Set<UInt64>()
        for seed in 0..<40 {
            let (value, result) = runCounterTasks(seed: UInt64(seed))
            #expect(result.verdict == .pass)
            finals.insert(value)
            digests.insert(result.digest.value)
        }
        #expect(finals == [1, 2], "both the lost update (1) and the correct count (2) must occur")
        #expect(digests.count > 2)
    }

    @Test func sameSeedGivesSameInterleaving() {
        for seed in 0..<10 {
            let first = runCounterTasks(seed: UInt64(seed)).1
            let second = runCounterTasks(seed: UInt64(seed)).1
            #expect(first.digest == second.digest)
            #expect(first.tape == second.tape)
        }
    }

    @Test func sleepingOnTheClockAdvancesVirtualTime() {
        let simulation = Simulation(seed: 1, strategy: FIFOStrategy())
        let clock = simulation.clock
        let box = ResultBox()
        simulation.spawn("sleeper") {
            try? await clock.sleep(for: .seconds(5))
            box.value = Int(clock.now.nanoseconds / 1_000_000_000)
        }
        let result = simulation.run()
        #expect(result.verdict == .pass)
        #expect(box.value == 5)
        #expect(result.endTime == 5_000_000_000)
    }

    @Test func aTaskSuspendedForeverIsPendingWork() {
        let simulation = Simulation(seed: 1, strategy: FIFOStrategy())
        simulation.spawn("stuck") {
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        }
        let result = simulation.run()
        guard case .pending(let message) = result.verdict else {
            Issue.record("expected pending, got \(result.verdict)")
            return
        }
        #expect(message.contains("stuck"))
    }
}
