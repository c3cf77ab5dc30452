import SimCore
import SimEngine
import SimScenarios
import SimTrace

extension Benchmark {
    /// Compressed bytes per event over the traces of the first lost-input-navigation seeds, against the
    /// same events as JSON lines through zstd at the same level: once as a corpus archived as one
    /// stream (the target), once as separate files (per-file costs: header, symbol table, frames).
    func corpusFigures() throws(SimEngineError) -> [BenchFigure] {
        let level: Int32 = 3
        let plan = RunPlan.probed(scenario: LostInputNavigation.scenario, variant: "buggy", strategy: StrategySpec(kind: .pct))
        let strategy = plan.makeStrategy()
        let seeds = configuration.corpusSeeds
        var events = 0
        var fileBytes = 0
        var jsonFileBytes = 0
        var rawStream: [UInt8] = []
        var jsonStream: [UInt8] = []
        for seed in 0..<UInt64(seeds) {
            let bytes: [UInt8]
            let file: TraceFile
            do {
                let writer = try TraceWriter(
                    inMemory: "seed \(seed)",
                    header: TraceHeader(
                        toolVersion: SimRunVersion.current, scenario: plan.scenario.name, variant: plan.variant,
                        seed: seed, strategy: plan.strategy.description,
                        options: plan.options.map { TraceOption($0.0, $0.1) }),
                    compressionLevel: level)
                let result = plan.run(seed: seed, strategy: strategy, sink: writer)
                try writer.finish(Recorder.footer(for: result))
                bytes = writer.bytes
                file = try TraceFile.load(bytes: bytes, name: "seed \(seed)")
            } catch {
                throw Self.failure("recording the corpus", error)
            }
            guard let raw = RawZstd.decompress(bytes) else {
                throw SimEngineError(.failed, "bench: a corpus trace did not decompress")
            }
            rawStream += raw
            var json: [UInt8] = []
            let render = EventJSON { file.text($0) }
            for event in file.events { render.append(event, to: &json) }
            events += file.events.count
            fileBytes += bytes.count
            jsonFileBytes += RawZstd.compressedSize(json, level: level)
            jsonStream += json
        }
        let perEvent = { (total: Int) in Double(total) / Double(max(events, 1)) }
        let stream = perEvent(RawZstd.compressedSize(rawStream, level: level))
        let jsonStreamPerEvent = perEvent(RawZstd.compressedSize(jsonStream, level: level))
        let files = perEvent(fileBytes)
        let jsonFiles = perEvent(jsonFileBytes)
        let corpus = "\(seeds) seeds (pct), \(events) events"
        return [
            BenchFigure(
                key: "corpus_bytes_per_event", name: "compressed B/event, lost-input corpus as one stream",
                value: stream, unit: "B/event", baselineName: "same events as JSON lines, zstd -\(level)",
                baseline: jsonStreamPerEvent,
                ratioText: "\((jsonStreamPerEvent / stream).rounded(significant: 3))x smaller",
                ratio: jsonStreamPerEvent / stream, ratioMeaning: "baseline bytes / trace bytes",
                target: "<= 1.0 B/event, >= 4x smaller", met: stream <= 1.0 && jsonStreamPerEvent / stream >= 4,
                note:
                    "\(corpus); the traces' decompressed content (header, symbols, decisions, checkpoints, footer included) as one zstd -\(level) stream"
            ),
            BenchFigure(
                key: "corpus_file_bytes_per_event", name: "compressed B/event, lost-input corpus as separate files",
                value: files, unit: "B/event", baselineName: "one JSON-lines file per run, zstd -\(level)",
                baseline: jsonFiles, ratioText: "\((jsonFiles / files).rounded(significant: 3))x smaller",
                ratio: jsonFiles / files, ratioMeaning: "baseline bytes / trace bytes", target: "context", met: nil,
                note: "\(corpus); each .simtrace as written, all frames and per-file costs included"),
        ]
    }
}
