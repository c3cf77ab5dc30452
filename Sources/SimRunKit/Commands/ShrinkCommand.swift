import ArgumentParser
import SimCore
import SimEngine
import SimTrace

struct ShrinkCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "shrink", abstract: "Shrink a failing trace toward fifo and fewer steps, keeping its failure.",
        discussion: ExitStatus.helpText(for: codes))

    /// The codes `shrink` can return (the exit-code test walks each one).
    static let codes = [
        ExitStatus.ok, ExitStatus.failure, ExitStatus.usage, ExitStatus.badTrace, ExitStatus.missingInput,
        ExitStatus.cannotWrite, ExitStatus.interrupted,
    ]

    @Argument(help: "The failing .simtrace file.") var trace: String
    @Option(name: [.short, .long], help: "Where to write the shrunk trace (default: <trace>.shrunk.simtrace).")
    var out: String?
    @OptionGroup var output: OutputOptions

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        output.apply(to: context.console)
        let input = try TraceInput(path: trace)
        // Checked before the shrinking runs; after the input, so that a mistyped trace path is
        // "missing input" and its directory is never created for the default output next to it.
        let path = out ?? (trace.hasSuffix(".simtrace") ? String(trace.dropLast(9)) : trace) + ".shrunk.simtrace"
        try OutputPath.prepareFile(path, flag: out == nil ? "the shrunk trace" : "--out")
        guard let footer = input.footer else {
            throw CommandFailure(
                ExitStatus.badTrace,
                "\(trace): at decompressed byte \(input.endOffset): expected the footer with the run's verdict (the trace is truncated after event \(input.eventCount); shrinking needs the failure to keep)"
            )
        }
        if case .crashed = footer.verdict {
            throw CommandFailure(
                ExitStatus.usage,
                "\(trace): the recorded run crashed; shrinking would run candidate schedules that trap (not supported) — `simrun replay` reproduces it in a child process"
            )
        }
        guard footer.verdict.isFailure else {
            throw CommandFailure(ExitStatus.usage, "\(trace): the recorded run did not fail; nothing to shrink")
        }
        let plan = try input.plan(in: context.catalog)
        try OutputPath.createParent(of: path)
        guard let shrunk = try Self.shrink(input, footer: footer, plan: plan, to: path) else {
            throw CommandFailure(
                ExitStatus.failure, "\(trace): the recorded failure does not reproduce on this build; cannot shrink")
        }
        let console = context.console
        console.verdict("shrunk in \(shrunk.runs) runs: \(shrunk.summary.line)")
        console.out("same failure: \(shrunk.summary.after.verdict)")
        console.out("trace: \(path)")
        console.out("replay: \(context.programName) replay \(shellQuoted(path))")
        let (before, after) = (shrunk.summary.before, shrunk.summary.after)
        let counts = { (result: RunResult) -> JSONValue in
            .object([
                "decisions": .int(Int64(result.tape.count)), "nonFifo": .int(Int64(result.deviations)),
                "events": .unsigned(result.eventCount), "steps": .int(Int64(result.steps)),
            ])
        }
        console.json(
            ResultDocument(
                command: "shrink", verdict: "shrunk", exitCode: ExitStatus.ok,
                members: ResultDocument.run(
                    scenario: input.header.scenario, variant: plan.variant, strategy: input.header.strategy,
                    seed: input.header.seed)
                    + [
                        .init("trace", .string(path)), .init("runs", .int(Int64(shrunk.runs))),
                        .init("outcome", ResultDocument.outcome(after.verdict)),
                        .init("before", counts(before)), .init("after", counts(after)),
                        .init("findings", ResultDocument.findings(after.verdict, seed: input.header.seed, trace: path)),
                    ]
            ).text)
        return ExitStatus.ok
    }
}

extension ShrinkCommand {
    /// Shrinks a failing trace's schedule and records the result at `path` (keeping where it was
    /// found); nil when the failure does not reproduce. Shared by `shrink` and by `fuzz` run in-process.
    static func shrink(_ input: TraceInput, footer: TraceFooter, plan: RunPlan, to path: String)
        throws(CommandFailure) -> (runs: Int, summary: ShrinkSummary)?
    {
        let shrinker = Shrinker(plan: plan, seed: input.header.seed, target: FailureSignature(footer.verdict))
        guard let outcome = shrinker.shrink(input.tape) else { return nil }
        let kept = input.header.options.filter { $0.key == "foundAtSeed" }.map { ($0.key, $0.value) }
        let recorded = try Recorder.record(
            plan: plan, seed: input.header.seed, tape: outcome.tape, strategyName: input.header.strategy, to: path,
            options: kept + [("shrunk", "true")])
        return (outcome.runs, ShrinkSummary(before: outcome.original, after: recorded))
    }
}

/// Before/after figures of a shrink.
struct ShrinkSummary {
    let before: RunResult
    let after: RunResult

    /// `decisions 13 → 3 (non-fifo 9 → 2), events 65 → 40, steps 18 → 12`
    var line: String {
        "decisions \(before.tape.count) → \(after.tape.count) (non-fifo \(before.deviations) → \(after.deviations)), "
            + "events \(before.eventCount) → \(after.eventCount), steps \(before.steps) → \(after.steps)"
    }
}
