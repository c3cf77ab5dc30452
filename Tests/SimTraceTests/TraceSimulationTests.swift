import SimCore
import SimTrace
import Testing

@Suite struct TraceSimulationTests {
    /// A small model: two lanes post work that emits events with fields and makes data choices.
    static func run(seed: UInt64, sink: any EventSink) -> RunResult {
        let sim = Simulation(seed: seed, strategy: RandomStrategy(), sink: sink)
        var total = 0
        for lane in ["main", "background.1"] {
            for round in 0..<20 {
                sim.post(on: lane, "work.\(round % 3)") {
                    let pick = sim.choose(3, "site.\(lane)")
                    total += pick
                    sim.emit(
                        "model.step", lane, ["round": .int(round), "pick": .int(pick), "odd": .bool(round % 2 == 1)])
                }
            }
        }
        return sim.run()
    }

    @Test func simulationRecordsTheSameEventsAsAMemorySink() throws {
        let memory = MemorySink()
        let expected = Self.run(seed: 11, sink: memory)
        let writer = try TraceWriter(inMemory: "sim", header: TraceFixtures.header, eventsPerFrame: 16)
        let result = Self.run(seed: 11, sink: writer)
        #expect(result.digest == expected.digest)
        #expect(writer.digest == result.digest, "the writer's running digest equals the simulation's")
        try writer.finish(
            TraceFooter(
                eventCount: result.eventCount, decisionCount: UInt64(result.tape.count), steps: UInt64(result.steps),
                endTime: result.endTime, verdict: result.verdict, digest: result.digest))
        let trace = try TraceFile.load(bytes: writer.bytes, name: "sim")
        #expect(trace.events == memory.events)
        #expect(trace.decisions == memory.decisions)
        #expect(trace.symbols == memory.symbols)
        #expect(trace.digest == result.digest)
        #expect(trace.tape == result.tape)
    }
}
