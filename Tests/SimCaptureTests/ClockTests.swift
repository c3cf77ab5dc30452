import SimCapture
import SimCore
import SimTestSupport
import Testing

@Suite struct ClockTests {
    @Test func timersFireAtTheirDeadlinesAndTimeJumpsBetweenThem() {
        let log = OrderLog()
        var times: [Int64] = []
        let sink = MemorySink()
        let result = simulate(sink: sink) { sim in
            sim.after(.milliseconds(300), "late") {
                log.append("late")
                times.append(sim.now)
            }
            sim.after(.milliseconds(100), "early") {
                log.append("early")
                times.append(sim.now)
            }
        }
        #expect(log.entries == ["early", "late"])
        #expect(times == [100_000_000, 300_000_000])
        #expect(result.endTime == 300_000_000)
        let advances = sink.events.filter { sink.text($0.kind) == "clock.advance" }
        #expect(advances.count == 2, "time jumps straight to each deadline")
    }

    @Test func readyJobsRunBeforeTimeMoves() {
        let log = OrderLog()
        _ = simulate { sim in
            sim.after(.seconds(1), "timer") { log.append("timer@\(sim.now)") }
            sim.post(on: "main", "job") { log.append("job@\(sim.now)") }
        }
        #expect(log.entries == ["job@0", "timer@1000000000"])
    }

    @Test func timersDueAtTheSameInstantAreAChoice() {
        var orders = Set<[String]>()
        for seed in 0..<30 {
            let log = OrderLog()
            let result = simulate(seed: UInt64(seed), strategy: RandomStrategy()) { sim in
                for name in ["a", "b", "c"] {
                    sim.after(.milliseconds(5), on: sim.lane(name), "tick") { log.append(name) }
                }
            }
            #expect(result.tape.decisions.first?.kind == .pick)
            orders.insert(log.entries)
        }
        #expect(orders.count > 1, "same-instant timers must not always fire in FIFO order")
        let fifo = OrderLog()
        _ = simulate { sim in
            for name in ["a", "b", "c"] {
                sim.after(.milliseconds(5), on: sim.lane(name), "tick") { fifo.append(name) }
            }
        }
        #expect(fifo.entries == ["a", "b", "c"])
    }

    @Test func cancelledTimersNeverFire() {
        let log = OrderLog()
        _ = simulate { sim in
            let handle = sim.after(.milliseconds(10), "cancelled") { log.append("cancelled") }
            sim.after(.milliseconds(5), "canceller") { sim.cancel(handle) }
            sim.after(.milliseconds(20), "kept") { log.append("kept") }
        }
        #expect(log.entries == ["kept"])
    }

    @Test func simClockIsASwiftClock() async {
        let result = simulate { sim in
            let clock: any Clock<Duration> = sim.clock
            sim.spawn("sleeper") {
                let start = sim.clock.now
                try? await clock.sleep(for: .milliseconds(250), tolerance: nil)
                let elapsed = start.duration(to: sim.clock.now)
                sim.emit("slept", "", ["ns": .int(Int(elapsed.nanosecondsClamped))])
                if elapsed != .milliseconds(250) { sim.fail("sleep", "slept \(elapsed)") }
            }
        }
        #expect(result.verdict == .pass)
        #expect(result.endTime == 250_000_000)
    }

    @Test func cancellingASleepingTaskWakesItWithCancellation() {
        let log = OrderLog()
        let result = simulate { sim in
            let sleeper = sim.spawn("sleeper") {
                do {
                    try await sim.clock.sleep(for: .seconds(10))
                    log.append("woke")
                } catch {
                    log.append("cancelled")
                }
            }
            sim.after(.seconds(1), "cancel") { sleeper.cancel() }
        }
        #expect(log.entries == ["cancelled"])
        #expect(result.endTime == 1_000_000_000, "the cancelled timer must not move the clock to 10s")
    }
}
