import SimCore
import SimEngine
import SimTrace

extension Benchmark {
    /// Peak resident memory of a child process recording a long trace, against one recording a short one.
    func memoryFigure() throws(SimEngineError) -> BenchFigure {
        let small = configuration.memoryEventsSmall
        let large = configuration.memoryEventsLarge
        let smallPeak = try peak(events: small)
        let largePeak = try peak(events: large)
        let mib = { (bytes: UInt64) in Double(bytes) / 1_048_576 }
        let ratio = Double(largePeak) / Double(max(smallPeak, 1))
        return BenchFigure(
            key: "record_peak_memory", name: "peak memory recording \(large.humanized) events", value: mib(largePeak),
            unit: "MiB", baselineName: "recording \(small.humanized) events", baseline: mib(smallPeak),
            ratioText: "\(ratio.rounded(significant: 3))x", ratio: ratio, ratioMeaning: "large peak / small peak",
            target: "<= 64 MiB, flat (<= 1.1x)", met: mib(largePeak) <= 64 && ratio <= 1.1,
            note: "peak RSS (VmHWM) of a child process (`simrun _bench-record`) recording to a file")
    }

    private func peak(events: Int) throws(SimEngineError) -> UInt64 {
        let file = path("memory.simtrace")
        defer { unlink(file) }
        guard
            let outcome = PeakMemoryProbe.run(
                ["_bench-record", "--events", String(events), "--out", file], reportPath: path("memory.peak")),
            outcome.exitStatus == 0
        else {
            throw SimEngineError(.failed, "bench: the recording child process failed")
        }
        return outcome.peakBytes
    }

    /// The child's side: records the benchmark workload for about `events` events into `path`.
    package static func recordForMemory(events: Int, path: String) throws(SimEngineError) -> UInt64 {
        let workload = BenchWorkload.recording(events: events)
        do {
            let writer = try TraceWriter(
                path: path,
                header: TraceHeader(
                    toolVersion: SimRunVersion.current, scenario: "bench-lanes", variant: "default", seed: 1,
                    strategy: "random"))
            let (simulation, _) = workload.makeSimulation(
                seed: 1, strategy: RandomStrategy(), sink: writer, retainsTape: false)
            let result = simulation.run()
            try writer.finish(footer(result, writer))
            return result.eventCount
        } catch {
            throw failure("recording", error)
        }
    }
}

extension Int {
    fileprivate var humanized: String { Double(self).humanized }
}

