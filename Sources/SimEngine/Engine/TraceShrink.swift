import SimCore
import SimTrace

/// The sizes of a run a shrink compares before and after.
public struct ShrinkCounts: Sendable, Equatable, Codable {
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
public struct ShrinkReport: Sendable, Equatable, Codable {
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

extension TraceShrink {
    /// How shrinking ended where it ran.
    package enum Outcome: Equatable {
        /// Shrunk into the output.
        case shrunk(ShrinkReport)
        /// The failure did not reproduce (a crash: not the recorded crash on this build).
        case notReproduced
        /// A candidate schedule trapped and took the shrinking child down, with the trap's message.
        case trapped(String)
        /// The cancellation passed on to the child stopped it.
        case interrupted
        /// Shrinking could not be done (the child's failure, with its kind).
        case failed(SimEngineError.Kind, String)
    }

    /// The one shrinking entry, wherever `isolation` runs the code: a crash's candidates each in a
    /// child of their own (`CrashShrink`: a crash cannot be shrunk without a launcher), any other
    /// failure in one child (a candidate may trap; with `passingCancellation` it stops like the
    /// command it works for), or here.
    package static func shrink(
        _ input: TraceInput, footer: TraceFooter, plan: RunPlan, to path: String, isolation: Isolation,
        passingCancellation: Bool = false, timeoutSeconds: Double = 300
    ) throws(SimEngineError) -> Outcome {
        if footer.verdict.isCrash {
            let launcher = try isolation.launcher(for: "\(input.path): the recorded run crashed; shrinking it")
            return try CrashShrink.shrink(input, footer: footer, plan: plan, to: path, launcher: launcher)
                .map { .shrunk($0) } ?? .notReproduced
        }
        guard let launcher = isolation.launcher else {
            return try shrink(input, footer: footer, plan: plan, to: path).map { .shrunk($0) } ?? .notReproduced
        }
        let run = try launcher.run(
            .shrink(.init(plan: try plan.descriptor(), trace: input.path, out: path)), timeoutSeconds: timeoutSeconds,
            passingCancellation: passingCancellation)
        if case .signaled = run.termination {
            return run.cancelled ? .interrupted : .trapped(run.trapMessage ?? run.termination.description)
        }
        if run.cancelled && run.termination != .exited(0) { return .interrupted }
        for reply in run.replies.reversed() {
            switch reply {
            case .shrunk(let report): return .shrunk(report)
            case .notReproduced: return .notReproduced
            case .failure(let kind, let message): return .failed(kind, message)
            default: continue
            }
        }
        throw SimEngineError(.failed, "the shrinking process \(run.termination) without its record")
    }
}

extension ChildJob.Shrink {
    /// The child's work: shrinks `trace` into `out`.
    func perform(_ plan: RunPlan) throws(SimEngineError) -> ChildReply {
        let input = try TraceInput(path: trace)
        guard let footer = input.footer, footer.verdict.isFailure else {
            throw .usage("\(trace): no failure to shrink")
        }
        return try TraceShrink.shrink(input, footer: footer, plan: plan, to: out).map { .shrunk($0) } ?? .notReproduced
    }
}
