import SimCore
import SimEngine
import SimTrace

extension Benchmark {
    /// Replay events/s (re-run following the tape, comparing every event with the file) against
    /// recording the same run; decode events/s (read only) against raw zstd decompression.
    func replayAndDecodeFigures() throws(SimEngineError) -> [BenchFigure] {
        let workload = BenchWorkload.recording(events: configuration.replayEvents)
        let plan = RunPlan.probed(scenario: workload.scenario, variant: "default", strategy: StrategySpec(kind: .random))
        let file = path("replay.simtrace")
        defer { unlink(file) }
        var recordSeconds = Double.infinity
        var replaySeconds = Double.infinity
        var events: UInt64 = 0
        var compared: UInt64 = 0
        var passes = 0
        for _ in 0..<repetitions {
            recordSeconds = min(
                recordSeconds,
                try Self.timeThrowing {
                    events =
                        try Recorder.record(
                            plan: plan, seed: 1, strategy: plan.makeStrategy(), strategyName: "random", to: file
                        ).eventCount
                })
            replaySeconds = min(
                replaySeconds,
                try Self.timeThrowing {
                    // What `simrun replay` does: the last frame (a crashed run replays in a child), the
                    // header, then one pass over the file following the schedule and comparing events.
                    guard TraceEnding.read(path: file) == .records else {
                        throw SimEngineError(.failed, "bench: cannot read the end of \(file)")
                    }
                    let reader: TraceReader
                    do throws(TraceError) {
                        reader = try TraceReader(path: file)
                    } catch {
                        throw TraceInput.failure(error)
                    }
                    let outcome = try TraceReplayer.replayComparing(reading: reader, path: file, plan: plan)
                    passes = outcome.readTwice ? 2 : 1
                    guard outcome.divergence == nil && outcome.notes.isEmpty else {
                        throw SimEngineError(
                            .failed,
                            "bench: the replay diverged: \((outcome.divergence ?? outcome.notes).joined(separator: " / "))"
                        )
                    }
                    compared = outcome.eventsCompared
                })
        }
        var decoded: UInt64 = 0
        var decodeSeconds = Double.infinity
        var rawSeconds = Double.infinity
        var rawBytes: UInt64 = 0
        for _ in 0..<repetitions {
            decodeSeconds = min(
                decodeSeconds,
                try Self.timeThrowing {
                    let reader = try TraceReader(path: file)
                    decoded = 0
                    var event = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
                    while try reader.nextEvent(into: &event) { decoded += 1 }
                })
            rawSeconds = min(rawSeconds, Stopwatch.time { rawBytes = RawZstd.decompressedSize(ofFile: file) ?? 0 })
        }
        let replay = Double(compared) / replaySeconds
        let record = Double(events) / recordSeconds
        let decode = Double(decoded) / decodeSeconds
        let raw = Double(decoded) / rawSeconds
        return [
            BenchFigure(
                key: "replay_events_per_second", name: "replay events/s (re-run and compare)", value: replay,
                unit: "events/s", baselineName: "recording the same run", baseline: record,
                ratioText: "\((replay / record).rounded(significant: 3))x", ratio: replay / record,
                ratioMeaning: "replay rate / recording rate", target: ">= 5M/s", met: replay >= 5e6,
                note:
                    "\(events) events; re-runs by job identity, following the schedule and comparing each event as both are read (\(passes == 1 ? "one pass" : "the schedule read in a second pass") over the file)"
            ),
            BenchFigure(
                key: "decode_events_per_second", name: "decode events/s (read, no re-run)", value: decode,
                unit: "events/s", baselineName: "raw zstd decompression of the file", baseline: raw,
                ratioText: "\((decode / raw * 100).rounded(significant: 3))% of it", ratio: decode / raw,
                ratioMeaning: "decode rate / raw decompression rate", target: ">= 20M/s", met: decode >= 20e6,
                note: "\(decoded) events, \(rawBytes) decompressed bytes"),
        ]
    }
}

