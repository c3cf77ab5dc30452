import SimCore
import SimTestSupport
import Testing

@Suite struct KernelTests {
    @Test func aLaneRuleDrainsOneLaneBeforeAnother() {
        for seed in 0..<100 {
            let log = OrderLog()
            _ = simulate(seed: UInt64(seed), strategy: RandomStrategy()) { sim in
                let micro = sim.lane("microtask")
                let main = sim.lane("main")
                sim.rule(micro, drainsBefore: main)
                sim.post(main, sim.symbol("m1")) {
                    log.append("m1")
                    sim.post(micro, sim.symbol("t")) { log.append("t") }
                }
                sim.post(main, sim.symbol("m2")) { log.append("m2") }
            }
            #expect(log.entries == ["m1", "t", "m2"])
        }
    }

    @Test func aRunThatNeverSettlesEndsAtTheStepLimit() {
        let result = simulate(limits: RunLimits(maxSteps: 50)) { sim in
            func again() { sim.post(on: "spin", "again") { again() } }
            again()
        }
        #expect(result.verdict == .stepLimit(50))
        #expect(result.verdict.message.contains("no progress"))
    }

    @Test func aRunWhoseTimersNeverStopEndsAtTheTimeLimit() {
        let result = simulate(limits: RunLimits(maxSteps: 1_000_000, maxVirtualNanoseconds: 10_000_000_000)) { sim in
            func tick() { sim.after(.seconds(1), "tick") { tick() } }
            tick()
        }
        #expect(result.verdict == .timeLimit(10_000_000_000))
    }

    @Test func oraclesFailTheRunWithTheirMessage() {
        let always = simulate { sim in
            var x = 0
            sim.always("x stays small") { x < 2 ? nil : "x is \(x)" }
            for _ in 0..<3 { sim.post(on: "main", "inc") { x += 1 } }
        }
        #expect(always.verdict == .fail(oracle: "x stays small", message: "x is 2"))
        #expect(always.steps == 2, "always is checked after every step")

        let atEnd = simulate { sim in
            sim.atEnd("never") { "checked at the end" }
        }
        #expect(atEnd.verdict == .fail(oracle: "never", message: "checked at the end"))
    }

    @Test func sometimesGoalsAreReportedWhenReached() {
        let result = simulate { sim in
            var flag = false
            sim.sometimes("flag set") { flag }
            sim.sometimes("never") { false }
            sim.post(on: "main", "set") {
                flag = true
                sim.reach("marked")
            }
        }
        #expect(result.reachedGoals == ["flag set", "marked"])
        #expect(result.goals == ["flag set", "never", "marked"])
    }

    @Test func pendingWorkAtTheEndIsAVerdict() {
        let result = simulate { sim in
            sim.pendingWork("effects") { "1 effect still running" }
        }
        guard case .pending(let message) = result.verdict else {
            Issue.record("expected pending work, got \(result.verdict)")
            return
        }
        #expect(message.contains("1 effect still running"))
    }

    @Test func eventsCarrySequenceTimeLaneKindSubjectFieldsAndCause() throws {
        let sink = MemorySink()
        _ = simulate(sink: sink) { sim in
            sim.after(.milliseconds(7), on: sim.lane("main"), "later") {
                sim.emit("txn.commit", "input", ["count": 2, "phase": "input", "ok": true])
            }
        }
        let commit = try #require(sink.events.first { sink.text($0.kind) == "txn.commit" })
        #expect(sink.text(commit.lane) == "main")
        #expect(commit.time == 7_000_000)
        #expect(sink.text(commit.subject) == "input")
        #expect(commit.fields.count == 3)
        let pick = try #require(sink.events.first { $0.seq == commit.cause })
        #expect(sink.text(pick.kind) == "sched.pick", "an event's cause is the job that recorded it")
        let sequence = sink.events.map(\.seq)
        #expect(sequence == Array(1...UInt64(sequence.count)))
    }

    @Test func digestsDependOnTheSchedule() {
        var digests = Set<UInt64>()
        for seed in 0..<20 {
            let result = simulate(seed: UInt64(seed), strategy: RandomStrategy()) { threeLanes($0, log: OrderLog()) }
            digests.insert(result.digest.value)
        }
        #expect(digests.count > 5)
    }
}
