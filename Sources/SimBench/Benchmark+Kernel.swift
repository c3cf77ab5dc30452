import SimCore
import SimEngine
import SimTrace

extension Benchmark {
    /// Kernel jobs/s with a null sink against the same closures created and called from a plain array.
    func kernelFigure() -> BenchFigure {
        let workload = BenchWorkload(jobs: configuration.kernelJobs, eventsPerJob: 0)
        var jobs = 0
        var kernelSeconds = Double.infinity
        var arraySeconds = Double.infinity
        // Interleaved, so that a slow stretch of the machine hits both sides.
        for _ in 0..<repetitions {
            kernelSeconds = min(
                kernelSeconds,
                Stopwatch.time {
                    let (simulation, _) = workload.makeSimulation(
                        seed: 1, strategy: RandomStrategy(), sink: NullSink(), retainsTape: false)
                    jobs = simulation.run().steps
                })
            arraySeconds = min(arraySeconds, Stopwatch.time { Self.callFromArray(workload, jobs: jobs) })
        }
        let kernel = Double(jobs) / kernelSeconds
        let array = Double(jobs) / arraySeconds
        return .rate(
            key: "kernel_jobs_per_second", name: "kernel jobs/s, one core, null sink", kernel,
            against: "same closures from a plain array", array,
            ratioMeaning: "baseline rate / kernel rate", target: ">= 10M/s, within 4x",
            met: kernel >= 10e6 && array / kernel <= 4,
            note:
                "\(jobs) jobs on \(workload.lanes) lanes, random strategy (a decision per step), a sched.pick event per job, digest on"
        )
    }

    /// The baseline: the job bodies as closures (allocated and stored like a posted job), called in order.
    static func callFromArray(_ workload: BenchWorkload, jobs: Int) {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let chains = workload.makeChains(on: simulation)
        var batch: [() -> Void] = []
        batch.reserveCapacity(1024)
        var left = jobs
        var lane = 0
        while left > 0 {
            let count = min(1024, left)
            for _ in 0..<count {
                let chain = chains[lane]
                lane = lane + 1 == chains.count ? 0 : lane + 1
                batch.append { chain.work() }
            }
            for body in batch { body() }
            batch.removeAll(keepingCapacity: true)
            left -= count
        }
    }

    /// Recorded events/s into a zstd trace file against the same run with a null sink.
    func recordingFigure() throws(SimEngineError) -> BenchFigure {
        let workload = BenchWorkload.recording(events: configuration.recordEvents)
        let file = path("record.simtrace")
        defer { unlink(file) }
        var events: UInt64 = 0
        var bytes: UInt64 = 0
        var recordSeconds = Double.infinity
        var nullSeconds = Double.infinity
        for _ in 0..<repetitions {
            let seconds = try Self.timeThrowing {
                let writer = try TraceWriter(
                    path: file, header: header(scenario: "bench-lanes", variant: "default", seed: 1, strategy: "random")
                )
                let (simulation, _) = workload.makeSimulation(
                    seed: 1, strategy: RandomStrategy(), sink: writer, retainsTape: false)
                let result = simulation.run()
                try writer.finish(Self.footer(result, writer))
                events = result.eventCount
                bytes = writer.bytesWritten
            }
            recordSeconds = min(recordSeconds, seconds)
            nullSeconds = min(
                nullSeconds,
                Stopwatch.time {
                    let (simulation, _) = workload.makeSimulation(
                        seed: 1, strategy: RandomStrategy(), sink: NullSink(), retainsTape: false)
                    _ = simulation.run()
                })
        }
        let recorded = Double(events) / recordSeconds
        let unrecorded = Double(events) / nullSeconds
        return BenchFigure(
            key: "record_events_per_second", name: "recorded events/s to a zstd trace, one core", value: recorded,
            unit: "events/s", baselineName: "the kernel without recording", baseline: unrecorded,
            ratioText: "\((recorded / unrecorded * 100).rounded(significant: 3))% of it", ratio: recorded / unrecorded,
            ratioMeaning: "recorded rate / unrecorded rate", target: ">= 5M/s", met: recorded >= 5e6,
            note:
                "\(events) events (2 per job), level 3, written to a file: \((Double(bytes) / Double(max(events, 1))).rounded(significant: 3)) B/event"
        )
    }

    /// Times a throwing body, wrapping its error as a command failure.
    static func timeThrowing(_ body: () throws -> Void) throws(SimEngineError) -> Double {
        do {
            return try Stopwatch.time(body)
        } catch let failure as SimEngineError {
            throw failure
        } catch {
            throw failure("recording", error)
        }
    }
}

