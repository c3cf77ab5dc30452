import SimCore
import SimTestSupport
import Testing

/// The scheduler keeps its ready list incrementally and mixes `sched.pick` into the digest without
/// building the event when nothing records it; these pin that both agree with the slow paths.
@Suite struct ReadyListTests {
    /// Lanes that empty and refill, timers, a lane created mid-run: the mix the ready list tracks.
    private static func workload(_ sim: Simulation, log: OrderLog) {
        let lanes = (0..<5).map { sim.lane("lane.\($0)") }
        for (index, lane) in lanes.enumerated() {
            var left = 3 + index
            func step() {
                log.append("\(index).\(left)")
                left -= 1
                guard left > 0 else { return }
                if left % 3 == 0 {
                    sim.after(.milliseconds(index + 1), on: lane, "wake") { step() }
                } else {
                    sim.post(lane, sim.symbol("step")) { step() }
                    if left % 2 == 0 {
                        sim.post(lanes[(index + 1) % lanes.count], sim.symbol("extra")) { log.append("x") }
                    }
                }
            }
            sim.post(lane, sim.symbol("start")) { step() }
        }
        sim.post(on: "late", "spawn") { sim.post(on: "later", "spawned") { log.append("late") } }
    }

    @Test func aRunThatRecordsNothingHasTheSameDigestAsOneThatRecordsEverything() {
        for seed in 0..<50 {
            for strategy in [{ RandomStrategy() as any Strategy }, { PCTStrategy() }, { FIFOStrategy() }] {
                let quiet = simulate(seed: UInt64(seed), strategy: strategy()) { Self.workload($0, log: OrderLog()) }
                let memory = MemorySink()
                let recorded = simulate(seed: UInt64(seed), strategy: strategy(), sink: memory) {
                    Self.workload($0, log: OrderLog())
                }
                #expect(quiet.digest == recorded.digest)
                #expect(quiet.tape == recorded.tape)
                #expect(memory.events.count == Int(recorded.eventCount))
            }
        }
    }

    @Test func theRandomFastPathPicksWhatTheProtocolCallWould() {
        // A portfolio of one random strategy goes through `Strategy.pick`; the bare one is called directly.
        for seed in 0..<50 {
            let direct = OrderLog()
            let general = OrderLog()
            let a = simulate(seed: UInt64(seed), strategy: RandomStrategy()) { Self.workload($0, log: direct) }
            let b = simulate(seed: UInt64(seed), strategy: Wrapped(RandomStrategy())) {
                Self.workload($0, log: general)
            }
            #expect(direct.entries == general.entries)
            #expect(a.digest == b.digest)
        }
    }

    /// Forwards to another strategy, so that the scheduler cannot recognize it.
    private final class Wrapped: Strategy {
        let inner: any Strategy
        init(_ inner: any Strategy) { self.inner = inner }
        var description: String { inner.description }
        func start(seed: UInt64, symbols: SymbolTable) { inner.start(seed: seed, symbols: symbols) }
        func pick(_ ready: ReadySet) -> Int { inner.pick(ready) }
        func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
            inner.choose(count, kind: kind, site: site)
        }
    }
}
