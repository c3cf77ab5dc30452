import CAllocCount
import SimCore
import SimTrace
import Testing

/// Heap allocations per unit on the hot paths, in steady state, counted by the test-only
/// `CAllocCount` (which wraps malloc on glibc). Counts, unlike timings, hold on a busy machine, so
/// these thresholds fail `swift test` when a change adds an allocation per job or per event.
/// Each figure is (allocations over 2n units − allocations over n units) / n, so one-time costs
/// (buffers, symbol tables, first frames) cancel out.
@Suite(.enabled(if: sim_alloc_count_available() == 1, "allocation counting needs glibc's malloc wrapped"))
struct AllocationTests {
    /// Allocations made by `body` on this thread.
    private static func allocations(_ body: () throws -> Void) rethrows -> Double {
        let before = sim_alloc_count()
        try body()
        return Double(sim_alloc_count() &- before)
    }

    /// A chain of kernel jobs on one lane, each posting its successor; the closure captures one
    /// object, as the bench's workload does.
    private final class Chain {
        let simulation: Simulation
        let lane: LaneID
        let label: Symbol
        var left: Int
        init(_ simulation: Simulation, jobs: Int) {
            self.simulation = simulation
            lane = simulation.lane("chain")
            label = simulation.symbol("step")
            left = jobs
        }
        func step() {
            guard left > 0 else { return }
            left -= 1
            simulation.post(lane, label) { [self] in step() }
        }
    }

    private static func kernelRun(jobs: Int) -> Double {
        let simulation = Simulation(seed: 1, strategy: RandomStrategy(), limits: RunLimits(maxSteps: Int.max))
        let chains = (0..<4).map { _ in Chain(simulation, jobs: jobs / 4) }
        return allocations {
            for chain in chains { chain.step() }
            _ = simulation.run()
        }
    }

    /// Threshold: at most 0.05 allocations per kernel job. Target: 0, met (measured 0.008 in a debug
    /// build: a posted body that captures one object needs no context; what is left is the lanes'
    /// rings growing, which doubling makes rarer). One allocation per job would fail it 20 times over.
    @Test func kernelJobAllocatesNothingPerJob() {
        let n = 8_000
        let perJob = (Self.kernelRun(jobs: 2 * n) - Self.kernelRun(jobs: n)) / Double(n)
        print("allocations per kernel job: \(perJob)")
        #expect(perJob <= 0.05)
    }

    private static func recordedTrace(events: Int) throws -> (bytes: [UInt8], allocations: Double) {
        let writer = try TraceWriter(
            inMemory: "alloc.simtrace",
            header: TraceHeader(toolVersion: "test", scenario: "alloc", variant: "v", seed: 1, strategy: "fifo"),
            eventsPerFrame: 1_000)
        let lane = Symbol(raw: 1)
        let kind = Symbol(raw: 2)
        let key = Symbol(raw: 3)
        writer.define(lane, "main")
        writer.define(kind, "value.set")
        writer.define(key, "count")
        let count = try allocations {
            for index in 0..<events {
                var fields = EventFields()
                fields.append(EventField(key, .int(Int64(index))))
                writer.record(
                    Event(
                        seq: UInt64(index + 1), time: Int64(index), lane: lane, kind: kind, subject: .empty,
                        fields: fields))
            }
        }
        try writer.finish(
            TraceFooter(
                eventCount: UInt64(events), decisionCount: 0, steps: UInt64(events), endTime: Int64(events),
                verdict: .pass, digest: writer.digest))
        return (writer.bytes, count)
    }

    /// Threshold: at most 3.05 allocations per recorded event. Target: 0 per event, **not met in the
    /// debug build these tests run in**: `TraceWriter.record` measures exactly 3.0 per event here
    /// (constructing the same events alone: 0). Not yet traced to its source, nor measured in a
    /// release build; the threshold holds today's count so that a fourth allocation fails.
    @Test func recordingAnEventAllocatesAtMostTodaysThreePerEvent() throws {
        let n = 20_000
        let perEvent =
            (try Self.recordedTrace(events: 2 * n).allocations - Self.recordedTrace(events: n).allocations) / Double(n)
        print("allocations per recorded event: \(perEvent)")
        #expect(perEvent <= 3.05)
    }

    private static func decode(_ bytes: [UInt8]) throws -> Double {
        let reader = try TraceReader(bytes: bytes, name: "alloc")
        var event = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
        var decoded = 0
        let count = try allocations {
            while try reader.nextEvent(into: &event) { decoded += 1 }
        }
        #expect(reader.footer != nil)
        return count
    }

    /// Threshold: at most 0.01 allocations per decoded event (a frame may cost one). Target: 0, met
    /// (measured 0.0).
    @Test func decodingAnEventAllocatesNothingPerEvent() throws {
        let n = 20_000
        let small = try Self.recordedTrace(events: n).bytes
        let large = try Self.recordedTrace(events: 2 * n).bytes
        let perEvent = (try Self.decode(large) - Self.decode(small)) / Double(n)
        print("allocations per decoded event: \(perEvent)")
        #expect(perEvent <= 0.01)
    }
}
