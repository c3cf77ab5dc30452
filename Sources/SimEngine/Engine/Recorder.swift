import SimCore
import SimTrace

/// Runs one schedule while writing it to a trace file (atomically: a temporary name, renamed when
/// complete).
public enum Recorder {
    /// Records `plan` from `seed` with `strategy` into `path`; `strategyName` goes into the header.
    public static func record(
        plan: RunPlan, seed: UInt64, strategy: any Strategy, strategyName: String, to path: String,
        options extra: [(String, String)] = []
    ) throws(SimEngineError) -> RunResult {
        let header = TraceHeader(
            formatVersion: TraceHeader.currentFormatVersion, toolVersion: SimRunVersion.current,
            scenario: plan.scenario.name, variant: plan.variant, seed: seed, strategy: strategyName,
            options: (plan.options + extra).map { TraceOption($0.0, $0.1) }, build: BuildIdentity.current)
        let writer: TraceWriter
        do {
            writer = try TraceWriter(path: path, header: header)
        } catch {
            throw SimEngineError.cannotWrite(path, error)
        }
        let result = plan.run(seed: seed, strategy: strategy, sink: writer)
        do {
            try writer.finish(footer(for: result))
        } catch {
            writer.abandon()
            throw SimEngineError.cannotWrite(path, error)
        }
        return result
    }

    /// Records a given schedule (a tape, followed by job identity).
    public static func record(
        plan: RunPlan, seed: UInt64, tape: Tape, strategyName: String, to path: String,
        options: [(String, String)] = []
    ) throws(SimEngineError) -> RunResult {
        try record(
            plan: plan, seed: seed, strategy: ReplayStrategy(tape: tape), strategyName: strategyName, to: path,
            options: options)
    }

    package static func footer(for result: RunResult) -> TraceFooter {
        TraceFooter(
            eventCount: result.eventCount, decisionCount: UInt64(result.tape.count), steps: UInt64(result.steps),
            endTime: result.endTime, verdict: result.verdict, digest: result.digest)
    }
}
