import SimCore
import SimTrace

/// The sizes of a run a shrink compares before and after.
public struct ShrinkCounts: Sendable, Equatable {
    /// Decisions, those that depart from fifo, events and steps.
    public var decisions: Int
    /// Decisions that depart from fifo.
    public var nonFifo: Int
    /// Events of the run.
    public var events: UInt64
    /// Steps of the run.
    public var steps: Int

    /// The counts of `result`.
    public init(_ result: RunResult) {
        self.init(
            decisions: result.tape.count, nonFifo: result.deviations, events: result.eventCount, steps: result.steps)
    }

    /// The given counts.
    public init(decisions: Int, nonFifo: Int, events: UInt64, steps: Int) {
        self.decisions = decisions
        self.nonFifo = nonFifo
        self.events = events
        self.steps = steps
    }
}

/// What a shrink did: how many runs it took, the sizes before and after, and the failure kept.
public struct ShrinkReport: Sendable, Equatable {
    /// Candidate runs tried.
    public var runs: Int
    /// The run as found.
    public var before: ShrinkCounts
    /// The shrunk run.
    public var after: ShrinkCounts
    /// The shrunk run's verdict (the same failure).
    public var verdict: Verdict

    /// A report of these figures.
    public init(runs: Int, before: ShrinkCounts, after: ShrinkCounts, verdict: Verdict) {
        self.runs = runs
        self.before = before
        self.after = after
        self.verdict = verdict
    }

    /// `non-fifo decisions 9 → 2 (fifo decisions 4 → 1), events 65 → 40, steps 18 → 12`: what the
    /// shrink reduces first, the departures from fifo; the fifo ones apart, since a schedule with fewer
    /// departures may take more fifo picks to its end (never a bigger failure).
    public var sizes: String {
        let fifo = (before: before.decisions - before.nonFifo, after: after.decisions - after.nonFifo)
        return "non-fifo decisions \(before.nonFifo) → \(after.nonFifo) (fifo decisions \(fifo.before) → \(fifo.after)), "
            + "events \(before.events) → \(after.events), steps \(before.steps) → \(after.steps)"
    }

    /// `shrunk in 4 runs: non-fifo decisions 9 → 2 (…)`, the line `shrink` and `fuzz` print.
    public var line: String { "shrunk in \(runs) runs: \(sizes)" }
}

/// Shrinks a failing trace's schedule and records the shrunk run (the engine's work for `simrun
/// shrink`, for `fuzz`'s findings and its shrinking child alike).
public enum TraceShrink {
    /// Shrinks `input`'s schedule to the fewest departures from fifo that still give `footer`'s
    /// failure and records that run at `path` (keeping where it was found); nil when the failure
    /// does not reproduce.
    public static func shrink(_ input: TraceInput, footer: TraceFooter, plan: RunPlan, to path: String)
        throws(SimEngineError) -> ShrinkReport?
    {
        let shrinker = Shrinker(plan: plan, seed: input.header.seed, target: FailureSignature(footer.verdict))
        guard let outcome = shrinker.shrink(input.tape) else { return nil }
        let kept = input.header.options.filter { $0.key == "foundAtSeed" }.map { ($0.key, $0.value) }
        let recorded = try Recorder.record(
            plan: plan, seed: input.header.seed, tape: outcome.tape, strategyName: input.header.strategy, to: path,
            options: kept + [("shrunk", "true")])
        return ShrinkReport(
            runs: outcome.runs, before: ShrinkCounts(outcome.original), after: ShrinkCounts(recorded),
            verdict: recorded.verdict)
    }
}
