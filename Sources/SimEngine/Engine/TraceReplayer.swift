import SimCore
import SimTrace

/// Re-runs a recorded trace by following its decisions (by job identity) and compares every event
/// with the recording, streaming both from one pass over the file.
public struct TraceReplayer {
    public struct Outcome {
        public var result: RunResult
        /// The first difference, rendered with context from both sides; nil when identical.
        public var divergence: [String]?
        /// Where the tape could not be followed.
        public var notes: [String]
        public var eventsCompared: UInt64
        /// The recording was cut short and matched up to its end (the run went on past it).
        public var reachedTruncation = false
        /// The recording's footer (nil when it was cut short), once the replay has read it all.
        public var recordedFooter: TraceFooter?
        /// The recording has no footer: it was cut short.
        public var recordingIsTruncated = false
        /// The schedule had to be read in a second pass: one side ran more than the look-ahead bound
        /// ahead of the other (a long stretch without decisions, or a departing run).
        public var readTwice = false
    }

    public let input: TraceInput
    public let plan: RunPlan

    public init(input: TraceInput, plan: RunPlan) {
        self.input = input
        self.plan = plan
    }

    /// Replays on the recorded variant, comparing events (one pass over the file; `input`'s tape is
    /// not needed for it).
    public func replayComparing() throws(CommandFailure) -> Outcome {
        let path = input.path
        let reader: TraceReader
        do {
            reader = try TraceReader(path: path)
        } catch {
            throw TraceInput.failure(error)
        }
        return try Self.replayComparing(reading: reader, path: path, plan: plan)
    }

    /// Replays the trace `reader` has opened (its header read, nothing else) on `plan`, following its
    /// decisions and comparing its events as both are read: one pass over the file. The decisions and
    /// events passed over by one side are held for the other up to `maxBuffered` of them; past that
    /// the schedule is read from a second reader of `path` (the outcome says `readTwice`). The rest
    /// of the file is read after the run, so damage anywhere in it is reported as a reader of the
    /// whole file would (a thrown `CommandFailure`, exit 65).
    public static func replayComparing(
        reading reader: TraceReader, path: String, plan: RunPlan, maxBuffered: Int = 4096
    ) throws(CommandFailure) -> Outcome {
        let stream = TraceStream(reader: reader, maxBuffered: max(1, maxBuffered)) { () throws(TraceError) in
            try TraceReader(path: path)
        }
        let sink = ComparingSink(stream: stream)
        let strategy = ReplayStrategy(source: stream)
        let result = plan.scenario.run(variant: plan.variant, seed: reader.header.seed, strategy: strategy, sink: sink)
        sink.finish()
        stream.drain()
        if let error = stream.readError { throw TraceInput.failure(error) }
        var lines: [String]?
        if let divergence = sink.divergence {
            var text = ["first difference at event #\(divergence.atEvent): \(divergence.reason)", "  recorded:"]
            text += divergence.recorded.map { "    " + $0 }
            text.append("  replayed:")
            text += divergence.live.map { "    " + $0 }
            lines = text
        } else if let footer = reader.footer, footer.digest != result.digest {
            lines = ["digest differs: recorded \(footer.digest), replayed \(result.digest)"]
        }
        var outcome = Outcome(result: result, divergence: lines, notes: strategy.notes, eventsCompared: sink.compared)
        outcome.reachedTruncation = sink.reachedTruncation && lines == nil
        outcome.recordedFooter = reader.footer
        outcome.recordingIsTruncated = reader.isTruncated
        outcome.readTwice = stream.fellBack
        return outcome
    }

    /// Replays the schedule on the plan's (possibly different) variant, for its verdict only.
    public func replayForVerdict() -> Outcome {
        let (result, strategy) = plan.replay(input.tape, seed: input.header.seed)
        return Outcome(result: result, divergence: nil, notes: strategy.notes, eventsCompared: 0)
    }
}
