import SimCapture
import SimCore
import SimEngine
import SimScenarios
import SimTrace

/// Heap allocations per unit, in steady state, on the six hot paths: what `simrun bench --only
/// allocations` prints (counted in a child with `libSimAllocCount` preloaded) and what
/// `AllocationTests` holds under thresholds (counted by the same library linked into the test).
///
/// Each figure is (allocations over 2n units − allocations over n units) / n, so one-time costs
/// (buffers, symbol tables, the first frames, a scenario's setup) cancel out. The counter counts the
/// calling thread's allocations; every path here runs on that thread (async jobs included: the
/// capture routes run them on the simulation's thread). Call it from a thread of its own, not from
/// inside a task: there the runtime allocates a simulated task's memory differently (a probe run
/// from a Swift Testing task counted 0 allocations per async job).
package struct AllocationProbe: Sendable {
    /// The hot paths, in the order the bench prints them.
    package enum Path: String, CaseIterable, Sendable {
        case kernelJob = "kernel_job"
        case recordedEvent = "recorded_event"
        case decodedEvent = "decoded_event"
        case replayedEvent = "replayed_event"
        case asyncJob = "async_job"
        case fuzzSchedule = "fuzz_schedule"

        /// The unit, for the table.
        package var unit: String {
            switch self {
            case .kernelJob: "kernel job"
            case .recordedEvent: "recorded event"
            case .decodedEvent: "decoded event"
            case .replayedEvent: "replayed event"
            case .asyncJob: "async job"
            case .fuzzSchedule: "fuzz schedule"
            }
        }

        /// What one unit is.
        package var workload: String {
            switch self {
            case .kernelJob: "4 chains on their lanes, each job posting its successor (a body capturing one object)"
            case .recordedEvent: "TraceWriter.record of an event with one int field, in memory"
            case .decodedEvent: "TraceReader.nextEvent(into:) over an in-memory trace"
            case .replayedEvent:
                "simrun replay's one pass (TraceReplayer.replayComparing) over the bench's recorded workload"
            case .asyncJob: "8 task-group children calling Task.yield(), random strategy, one run"
            case .fuzzSchedule: "one lost-input-navigation run (buggy, pct) by seed, as a fuzz worker runs it"
            }
        }

        /// The most allocations per unit `swift test` and the bench accept: a little above the
        /// higher of today's debug and release counts (BENCHMARKS.md lists both), so one more
        /// allocation per unit fails.
        package var threshold: Double {
            switch self {
            case .kernelJob: 0.05
            case .recordedEvent: 3.05
            case .decodedEvent: 0.01
            case .replayedEvent: 0.55
            case .asyncJob: 4.2
            case .fuzzSchedule: 460
            }
        }

        /// The target, as text (zero where the path should not allocate at all).
        package var target: String {
            switch self {
            case .kernelJob, .decodedEvent, .replayedEvent, .recordedEvent: "0"
            case .asyncJob: "what the runtime allocates"
            case .fuzzSchedule: "context"
            }
        }
    }

    /// The calling thread's allocations so far.
    package let count: @Sendable () -> UInt64
    /// A scratch directory for the replay's trace files (removed files only; the caller owns it).
    package let directory: String

    package init(directory: String, count: @escaping @Sendable () -> UInt64) {
        self.directory = directory
        self.count = count
    }

    /// Allocations per unit on `path`.
    package func perUnit(_ path: Path) throws(SimEngineError) -> Double {
        switch path {
        case .kernelJob:
            let n = 8_000
            return (kernel(jobs: 2 * n) - kernel(jobs: n)) / Double(n)
        case .recordedEvent:
            let n = 20_000
            return (try recorded(events: 2 * n).allocations - recorded(events: n).allocations) / Double(n)
        case .decodedEvent:
            let n = 20_000
            let small = try recorded(events: n).bytes
            let large = try recorded(events: 2 * n).bytes
            return (try decoded(large) - decoded(small)) / Double(n)
        case .replayedEvent:
            let small = try replayed(events: 10_000)
            let large = try replayed(events: 20_000)
            return (large.allocations - small.allocations) / Double(large.events - small.events)
        case .asyncJob:
            let small = asyncRun(yields: 250)
            let large = asyncRun(yields: 500)
            return (large.allocations - small.allocations) / Double(large.jobs - small.jobs)
        case .fuzzSchedule:
            let n: UInt64 = 50
            return (fuzz(seeds: 2 * n) - fuzz(seeds: n)) / Double(n)
        }
    }

    private func allocations<E: Error>(_ body: () throws(E) -> Void) throws(E) -> Double {
        let before = count()
        try body()
        return Double(count() &- before)
    }

    // MARK: Kernel

    /// A chain of kernel jobs on one lane, each posting its successor.
    private final class Chain {
        let simulation: Simulation
        let lane: LaneID
        let label: Symbol
        var left: Int
        init(_ simulation: Simulation, index: Int, jobs: Int) {
            self.simulation = simulation
            lane = simulation.lane("chain.\(index)")
            label = simulation.symbol("step")
            left = jobs
        }
        func step() {
            guard left > 0 else { return }
            left -= 1
            simulation.post(lane, label) { [self] in step() }
        }
    }

    private func kernel(jobs: Int) -> Double {
        let simulation = Simulation(seed: 1, strategy: RandomStrategy(), limits: RunLimits(maxSteps: Int.max))
        let chains = (0..<4).map { Chain(simulation, index: $0, jobs: jobs / 4) }
        return allocations {
            for chain in chains { chain.step() }
            _ = simulation.run()
        }
    }

    // MARK: Recording and decoding

    private func recorded(events: Int) throws(SimEngineError) -> (bytes: [UInt8], allocations: Double) {
        do {
            let writer = try TraceWriter(
                inMemory: "alloc.simtrace",
                header: TraceHeader(toolVersion: "probe", scenario: "alloc", variant: "v", seed: 1, strategy: "fifo"),
                eventsPerFrame: 1_000)
            let lane = Symbol(raw: 1)
            let kind = Symbol(raw: 2)
            let key = Symbol(raw: 3)
            writer.define(lane, "main")
            writer.define(kind, "value.set")
            writer.define(key, "count")
            let count = allocations {
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
        } catch {
            throw SimEngineError(.failed, "allocation probe: recording: \(error)")
        }
    }

    private func decoded(_ bytes: [UInt8]) throws(SimEngineError) -> Double {
        do {
            let reader = try TraceReader(bytes: bytes, name: "alloc")
            var event = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
            let count = try allocations { () throws(TraceError) in while try reader.nextEvent(into: &event) {} }
            guard reader.footer != nil else {
                throw SimEngineError(.failed, "allocation probe: the trace read has no footer")
            }
            return count
        } catch let failure as SimEngineError {
            throw failure
        } catch {
            throw SimEngineError(.failed, "allocation probe: decoding: \(error)")
        }
    }

    // MARK: Replay

    private func replayed(events: Int) throws(SimEngineError) -> (allocations: Double, events: UInt64) {
        let workload = BenchWorkload.recording(events: events)
        let plan = RunPlan.probed(scenario: workload.scenario, variant: "default", strategy: StrategySpec(kind: .random))
        let file = "\(directory)/alloc-replay-\(events).simtrace"
        defer { unlink(file) }
        _ = try Recorder.record(plan: plan, seed: 1, strategy: plan.makeStrategy(), strategyName: "random", to: file)
        var compared: UInt64 = 0
        let count = try allocations { () throws(SimEngineError) in
            let reader: TraceReader
            do throws(TraceError) {
                reader = try TraceReader(path: file)
            } catch {
                throw TraceInput.failure(error)
            }
            let outcome = try TraceReplayer.replayComparing(reading: reader, path: file, plan: plan)
            guard outcome.divergence == nil && outcome.notes.isEmpty else {
                throw SimEngineError(.failed, "allocation probe: the replay diverged")
            }
            compared = outcome.eventsCompared
        }
        return (count, compared)
    }

    // MARK: Async jobs

    private func asyncRun(yields: Int) -> (allocations: Double, jobs: Int) {
        let tasks = 8
        let scenario = Scenario.async(
            name: "alloc-async", summary: "tasks that yield", variants: [.init("default", "")],
            limits: RunLimits(maxSteps: Int.max), concurrency: .eitherRoute
        ) { _, _ in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<tasks {
                    group.addTask { for _ in 0..<yields { await Task.yield() } }
                }
            }
        }
        var jobs = 0
        let count = allocations {
            jobs = scenario.run(variant: "default", seed: 1, strategy: RandomStrategy()).steps
        }
        return (count, jobs)
    }

    // MARK: Fuzz

    private func fuzz(seeds: UInt64) -> Double {
        let plan = RunPlan.probed(
            scenario: LostInputNavigation.scenario, variant: "buggy", strategy: StrategySpec(kind: .pct))
        return allocations {
            for seed in 0..<seeds { _ = plan.run(seed: seed, strategy: plan.makeStrategy()) }
        }
    }
}

extension AllocationProbe {
    /// A counter from `libSimAllocCount` when it is loaded into this process (preloaded by the bench
    /// into its child); nil when it is not, or cannot count on this platform.
    package static func preloadedCounter() -> (@Sendable () -> UInt64)? {
        typealias Available = @convention(c) () -> Int32
        typealias Count = @convention(c) () -> UInt64
        guard let process = dlopen(nil, RTLD_NOW),
            let available = dlsym(process, "sim_alloc_count_available"),
            let count = dlsym(process, "sim_alloc_count"),
            unsafeBitCast(available, to: Available.self)() == 1
        else { return nil }
        let function = unsafeBitCast(count, to: Count.self)
        return { function() }
    }
}
