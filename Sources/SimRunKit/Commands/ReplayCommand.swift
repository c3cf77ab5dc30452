import ArgumentParser
import SimCore
import SimEngine
import SimTrace

struct ReplayCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Re-run a trace's schedule and compare, or check it on another variant.",
        discussion: """
            On the recorded variant: every event is compared with the recording; a divergence shows the first \
            differing event with context. With --variant naming another variant: the schedule is followed by \
            identity (each departure from fifo by the job it took and the jobs it went ahead of, each data \
            decision by its site); when a non-fifo decision of the trace could not be followed there, the \
            replay is inconclusive — the recorded race never happened, so the run tested nothing. Every \
            replay prints how many decisions it followed; notes go to stderr.

            \(ExitStatus.helpText(for: codes))
            """)

    /// The codes `replay` can return (the exit-code test walks each one).
    static let codes = [
        ExitStatus.ok, ExitStatus.failure, ExitStatus.inconclusive, ExitStatus.usage, ExitStatus.badTrace,
        ExitStatus.missingInput, ExitStatus.cannotWrite, ExitStatus.interrupted,
    ]

    @Argument(help: "The .simtrace file.") var trace: String
    @OptionGroup var variant: VariantOption
    @OptionGroup var output: OutputOptions
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
        output.apply(to: console)
        // The common case, a trace replayed on its own variant, reads the file once: the header
        // here, then the schedule and the events together. Only when the last frame shows a run
        // that did not crash (a crashing schedule must run in a child) — or when another variant
        // asks for the verdict only — is the trace loaded first.
        if variant.variant == nil, noise == nil, case let ending = TraceEnding.read(path: trace), ending != .unknown {
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
            variant.variant != nil && variant.variant != input.header.variant
            || noise != nil && noise != recordedNoise
        let plan = try input.plan(in: context.catalog, variant: variant.variant, noise: noise)
        if case .crashed(let message) = input.footer?.verdict {
            let status = try CrashReplay(input: input, plan: plan).run(console: console)
            if status == ExitStatus.ok { for line in try CrashContext(path: trace).lines { console.out(line) } }
            console.json(
                document(
                    verdict: status == ExitStatus.ok ? "identical" : onOther ? "fail" : "diverged", status: status,
                    header: input.header, plan: plan, outcome: .crashed(message), extra: []
                ).text)
            return status
        }
        let replayer = TraceReplayer(input: input, plan: plan)
        let title = "\(input.header.scenario)/\(plan.variant) seed \(input.header.seed)"
        if onOther {
            if input.isTruncated { console.err("note: \(trace) is truncated; replaying its readable prefix") }
            let outcome = replayer.replayForVerdict()
            for note in outcome.notes { console.err("note: \(note)") }
            let failed = outcome.result.verdict.isFailure
            // Why the recorded race could not be re-enacted, when it could not. A failure on the other
            // variant is evidence whatever was followed (exit 1); a pass is evidence only when every
            // non-fifo decision was followed, else it is inconclusive (exit 2), never a pass.
            var inconclusive: String?
            if let problem = outcome.scheduleProblem {
                inconclusive = "\(problem) — the fix was not tested on this schedule"
            } else if let first = outcome.unfollowed.first {
                let more = outcome.unfollowed.count > 1 ? " (and \(outcome.unfollowed.count - 1) more)" : ""
                inconclusive =
                    "decision \(first.entry.number) (\(first.entry.summary)) could not be followed on variant "
                    + "\(plan.variant)\(more) — the fix was not tested on this schedule"
            }
            let status =
                failed ? ExitStatus.failure : inconclusive != nil ? ExitStatus.inconclusive : ExitStatus.ok
            console.verdict(
                "\(title): schedule of \(input.header.variant) replayed on \(plan.variant)"
                    + (plan.noise != recordedNoise ? " with \(plan.noise) noise lanes: " : ": ")
                    + (failed
                        ? "FAIL — \(outcome.result.verdict)"
                        : inconclusive != nil ? "passed, off the recorded schedule" : "pass"))
            console.out(outcome.tally.line)
            if let inconclusive { console.out("\(failed ? "note" : "inconclusive"): \(inconclusive)") }
            console.json(
                document(
                    verdict: status == ExitStatus.inconclusive ? "inconclusive" : failed ? "fail" : "pass",
                    status: status, header: input.header, plan: plan, outcome: outcome.result.verdict,
                    extra: [
                        .init("digest", .string(outcome.result.digest.description)),
                        .init("notes", .array(outcome.notes.map { .string($0) })),
                        .init("followed", .string(outcome.tally.line)),
                    ]
                ).text)
            return status
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
        let truncated = outcome.reachedTruncation || isTruncated
        let extra: [JSONValue.Member] = [
            .init("eventsCompared", .unsigned(UInt64(outcome.eventsCompared))),
            .init("digest", .string(outcome.result.digest.description)),
            .init("recorded", footer.map { ResultDocument.outcome($0.verdict) } ?? .null),
            .init("truncated", .bool(truncated)),
            .init("divergence", .array((outcome.divergence ?? []).map { .string($0) })),
            .init("notes", .array(outcome.notes.map { .string($0) })),
        ]
        let status = outcome.divergence == nil ? ExitStatus.ok : ExitStatus.failure
        console.json(
            document(
                verdict: status == ExitStatus.ok ? "identical" : "diverged", status: status, header: header, plan: plan,
                outcome: outcome.result.verdict, extra: extra
            ).text)
        if let divergence = outcome.divergence {
            console.verdict("\(title): DIVERGED")
            for line in divergence { console.out(line) }
            for note in outcome.notes { console.err("note: \(note)") }
            return status
        }
        if truncated {
            console.verdict(
                "\(title): identical up to the truncation point — \(outcome.eventsCompared) events; the recording ends there, the replay went on to \(outcome.result.eventCount) events, verdict \(outcome.result.verdict.isFailure ? "FAIL — \(outcome.result.verdict)" : "pass")"
            )
            console.out(outcome.tally.line)
            return status
        }
        let recordedVerdict = footer.map { "\($0.verdict)" } ?? "none (truncated)"
        console.verdict(
            "\(title): identical — \(outcome.eventsCompared) events, digest \(outcome.result.digest); verdict \(outcome.result.verdict.isFailure ? "FAIL — \(outcome.result.verdict)" : "pass") (recorded: \(recordedVerdict))"
        )
        console.out(outcome.tally.line)
        return status
    }

    /// The `--json` document of a replay.
    private func document(
        verdict: String, status: Int32, header: TraceHeader, plan: RunPlan, outcome: Verdict,
        extra: [JSONValue.Member]
    ) -> ResultDocument {
        return ResultDocument(
            command: "replay", verdict: verdict, exitCode: status,
            members: ResultDocument.run(
                scenario: header.scenario, variant: plan.variant, strategy: header.strategy, seed: header.seed)
                + [
                    .init("recordedVariant", .string(header.variant)), .init("trace", .string(trace)),
                    .init("outcome", ResultDocument.outcome(outcome)),
                    .init("findings", ResultDocument.findings(outcome, seed: header.seed, trace: trace)),
                ] + extra)
    }
}
