import ArgumentParser
import SimCore
import SimEngine
import SimTrace

struct ReplayCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Re-run a trace's schedule and compare, or check it on another variant.",
        discussion: """
            On the recorded variant: every event is compared with the recording; exit 0 when identical, 1 on \
            divergence (the first differing event is shown with context). With --variant naming another \
            variant: the schedule is followed by identity (each departure from fifo by the job it took and \
            the jobs it went ahead of, each data decision by its site); exit 0 when its oracles hold, 1 when \
            one fails, 2 (inconclusive) when a non-fifo decision of the trace could not be followed there — \
            the recorded race never happened, so the run tested nothing. Every replay prints how many \
            decisions it followed; notes go to stderr.
            """)

    @Argument(help: "The .simtrace file.") var trace: String
    @Option(help: "Replay the schedule on this variant instead (e.g. fixed).") var variant: String?
    @Option(
        help:
            "Replay with this many noise lanes instead of the recording's (background jobs that touch nothing; the schedule is followed by identity, as on another variant)."
    )
    var noise: Int?

    func validate() throws {
        if let noise, !(0...RunPlan.maxNoise).contains(noise) {
            throw ValidationError("--noise must be 0...\(RunPlan.maxNoise), got \(noise)")
        }
    }

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        // The common case, a trace replayed on its own variant, reads the file once: the header
        // here, then the schedule and the events together. Only when the last frame shows a run
        // that did not crash (a crashing schedule must run in a child) — or when another variant
        // asks for the verdict only — is the trace loaded first.
        if variant == nil, noise == nil, case let ending = TraceEnding.read(path: trace), ending != .unknown {
            if case .footer(let footer) = ending, case .crashed = footer.verdict {
                return try replayLoaded(context)
            }
            let reader: TraceReader
            do {
                reader = try TraceReader(path: trace)
            } catch {
                throw TraceInput.failure(error)
            }
            let plan = try TraceInput.plan(for: reader.header, path: trace, in: context.catalog, variant: nil)
            let outcome = try TraceReplayer.replayComparing(reading: reader, path: trace, plan: plan)
            return report(
                outcome, header: reader.header, plan: plan, footer: outcome.recordedFooter,
                isTruncated: outcome.recordingIsTruncated, console: console)
        }
        return try replayLoaded(context)
    }

    /// Loads the trace's schedule first (`TraceInput`), then replays.
    private func replayLoaded(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let input = try TraceInput(path: trace)
        let console = context.console
        let recordedNoise = try TraceInput.noise(of: input.header, path: trace)
        let onOther =
            variant != nil && variant != input.header.variant || noise != nil && noise != recordedNoise
        let plan = try input.plan(in: context.catalog, variant: variant, noise: noise)
        if case .crashed = input.footer?.verdict {
            return try CrashReplay(input: input, plan: plan).run(console: console)
        }
        let replayer = TraceReplayer(input: input, plan: plan)
        let title = "\(input.header.scenario)/\(plan.variant) seed \(input.header.seed)"
        if onOther {
            if input.isTruncated { console.err("note: \(trace) is truncated; replaying its readable prefix") }
            let outcome = replayer.replayForVerdict()
            for note in outcome.notes { console.err("note: \(note)") }
            console.out(
                "\(title): schedule of \(input.header.variant) replayed on \(plan.variant)"
                    + (plan.noise != recordedNoise ? " with \(plan.noise) noise lanes: " : ": ")
                    + (outcome.result.verdict.isFailure ? "FAIL — \(outcome.result.verdict)" : "pass"))
            console.out(outcome.tally.line)
            if let problem = outcome.scheduleProblem {
                console.out("inconclusive: \(problem) — the fix was not tested on this schedule")
                return ExitStatus.inconclusive
            }
            if let first = outcome.unfollowed.first {
                let more = outcome.unfollowed.count > 1 ? " (and \(outcome.unfollowed.count - 1) more)" : ""
                console.out(
                    "inconclusive: decision \(first.entry.number) (\(first.entry.summary)) could not be followed on variant "
                        + "\(plan.variant)\(more) — the fix was not tested on this schedule")
                return ExitStatus.inconclusive
            }
            return outcome.result.verdict.isFailure ? ExitStatus.failure : ExitStatus.ok
        }
        let outcome = try replayer.replayComparing()
        return report(
            outcome, header: input.header, plan: plan, footer: input.footer, isTruncated: input.isTruncated,
            console: console)
    }

    /// Prints a comparing replay's result; its exit status.
    private func report(
        _ outcome: TraceReplayer.Outcome, header: TraceHeader, plan: RunPlan, footer: TraceFooter?, isTruncated: Bool,
        console: Console
    ) -> Int32 {
        let title = "\(header.scenario)/\(plan.variant) seed \(header.seed)"
        if isTruncated { console.err("note: \(trace) is truncated; replaying its readable prefix") }
        if let divergence = outcome.divergence {
            console.out("\(title): DIVERGED")
            for line in divergence { console.out(line) }
            for note in outcome.notes { console.err("note: \(note)") }
            return ExitStatus.failure
        }
        if outcome.reachedTruncation || isTruncated {
            console.out(
                "\(title): identical up to the truncation point — \(outcome.eventsCompared) events; the recording ends there, the replay went on to \(outcome.result.eventCount) events, verdict \(outcome.result.verdict.isFailure ? "FAIL — \(outcome.result.verdict)" : "pass")"
            )
            console.out(outcome.tally.line)
            return ExitStatus.ok
        }
        let recordedVerdict = footer.map { "\($0.verdict)" } ?? "none (truncated)"
        console.out(
            "\(title): identical — \(outcome.eventsCompared) events, digest \(outcome.result.digest); verdict \(outcome.result.verdict.isFailure ? "FAIL — \(outcome.result.verdict)" : "pass") (recorded: \(recordedVerdict))"
        )
        console.out(outcome.tally.line)
        return ExitStatus.ok
    }
}
