import ArgumentParser
import SimCore

struct ReplayCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Re-run a trace's schedule and compare, or check it on another variant.",
        discussion: """
            On the recorded variant: every event is compared with the recording; exit 0 when identical, 1 on \
            divergence (the first differing event is shown with context). With --variant naming another \
            variant: the schedule is followed by job identity; exit 0 when its oracles hold, 1 when one fails.
            """)

    @Argument(help: "The .simtrace file.") var trace: String
    @Option(help: "Replay the schedule on this variant instead (e.g. fixed).") var variant: String?

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let input = try TraceInput(path: trace)
        let console = context.console
        let onOther = variant != nil && variant != input.header.variant
        let plan = try input.plan(in: context.catalog, variant: variant)
        if case .crashed = input.footer?.verdict {
            return try CrashReplay(input: input, plan: plan).run(console: console)
        }
        let replayer = TraceReplayer(input: input, plan: plan)
        let title = "\(input.header.scenario)/\(plan.variant) seed \(input.header.seed)"
        if input.isTruncated { console.err("note: \(trace) is truncated; replaying its readable prefix") }
        if onOther {
            let outcome = replayer.replayForVerdict()
            for note in outcome.notes { console.out("  note: \(note)") }
            console.out(
                "\(title): schedule of \(input.header.variant) replayed on \(plan.variant): "
                    + (outcome.result.verdict.isFailure ? "FAIL — \(outcome.result.verdict)" : "pass"))
            return outcome.result.verdict.isFailure ? ExitStatus.failure : ExitStatus.ok
        }
        let outcome = try replayer.replayComparing()
        if let divergence = outcome.divergence {
            console.out("\(title): DIVERGED")
            for line in divergence { console.out(line) }
            for note in outcome.notes { console.out("  note: \(note)") }
            return ExitStatus.failure
        }
        if outcome.reachedTruncation || input.isTruncated {
            console.out(
                "\(title): identical up to the truncation point — \(outcome.eventsCompared) events; the recording ends there, the replay went on to \(outcome.result.eventCount) events, verdict \(outcome.result.verdict.isFailure ? "FAIL — \(outcome.result.verdict)" : "pass")"
            )
            return ExitStatus.ok
        }
        let recordedVerdict = input.footer.map { "\($0.verdict)" } ?? "none (truncated)"
        console.out(
            "\(title): identical — \(outcome.eventsCompared) events, digest \(outcome.result.digest); verdict \(outcome.result.verdict.isFailure ? "FAIL — \(outcome.result.verdict)" : "pass") (recorded: \(recordedVerdict))"
        )
        return ExitStatus.ok
    }
}
