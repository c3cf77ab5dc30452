import SimCore
import SimTrace

/// Re-runs a recorded trace by following its decisions (by job identity) and compares every event
/// with the recording, streaming both.
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
    }

    public let input: TraceInput
    public let plan: RunPlan

    public init(input: TraceInput, plan: RunPlan) {
        self.input = input
        self.plan = plan
    }

    /// Replays on the recorded variant, comparing events.
    public func replayComparing() throws(CommandFailure) -> Outcome {
        let reader: TraceReader
        do {
            reader = try TraceReader(path: input.path)
        } catch {
            throw TraceInput.failure(error)
        }
        let sink = ComparingSink(reader: reader)
        let (result, strategy) = plan.replay(input.tape, seed: input.header.seed, sink: sink)
        sink.finish()
        if let error = sink.readError { throw TraceInput.failure(error) }
        var lines: [String]?
        if let divergence = sink.divergence {
            var text = ["first difference at event #\(divergence.atEvent): \(divergence.reason)", "  recorded:"]
            text += divergence.recorded.map { "    " + $0 }
            text.append("  replayed:")
            text += divergence.live.map { "    " + $0 }
            lines = text
        } else if let footer = input.footer, footer.digest != result.digest {
            lines = ["digest differs: recorded \(footer.digest), replayed \(result.digest)"]
        }
        var outcome = Outcome(result: result, divergence: lines, notes: strategy.notes, eventsCompared: sink.compared)
        outcome.reachedTruncation = sink.reachedTruncation && lines == nil
        return outcome
    }

    /// Replays the schedule on the plan's (possibly different) variant, for its verdict only.
    public func replayForVerdict() -> Outcome {
        let (result, strategy) = plan.replay(input.tape, seed: input.header.seed)
        return Outcome(result: result, divergence: nil, notes: strategy.notes, eventsCompared: 0)
    }
}
