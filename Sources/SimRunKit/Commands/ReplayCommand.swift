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
            replay is inconclusive — the recorded race never happened, so the run tested nothing — unless the \
            fix removes the race itself (for every unfollowed decision: the job that went ahead, or one it went \
            ahead of, no longer runs or was cancelled; or it ran only after them, or was never ready with them): \
            then a 500-seed pct campaign on that variant decides. A truncated trace is inconclusive (2): its verdict \
            was never reached. The replay runs in a child process: a model that traps is a finding. Every \
            replay prints how many decisions it followed; notes go to stderr.

            On another build (the trace header records the build that made it: the executable's build id, or \
            --build-label): the replay says so and judges this build. Identical events keep the recorded verdict; \
            otherwise the schedule is followed by identity and the replayed verdict is printed beside the \
            recorded one: still fails (1), passes with every non-fifo decision followed (0), passes because the \
            recorded race cannot happen here and a campaign found nothing (0; a job that no longer runs counts \
            only when it was cancelled), or inconclusive (2, naming the decisions that could not be followed — \
            the racing code may have moved). With --bisect the answer is a `git bisect run` code: 0 good \
            (passes), 1 bad (still fails or crashes), 125 skip (inconclusive), 128 to stop the bisection (any \
            error: the trace cannot be replayed, a usage error, stdout cannot be written); a trace whose build \
            is unknown is judged the same way.

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
    @OptionGroup var build: BuildLabelOption
    @Option(
        parsing: .unconditional,
        help:
            "Replay with this many noise lanes instead of the recording's (background jobs that touch nothing; the schedule is followed by identity, as on another variant).",
        transform: NumberArgument.int(0...RunPlan.maxNoise))
    var noise: Int?
    @Flag(
        help:
            "Answer with a `git bisect run` code: 0 good (this build passes the recorded schedule), 1 bad (still fails), 125 skip (inconclusive), 128 stop (any error)."
    )
    var bisect = false

    /// `--bisect`'s code for "stop the bisection": above 127, which `git bisect run` reads as abort.
    static let bisectAbort: Int32 = 128

    /// Whether a command line is `replay … --bisect …` (read before, or without, parsing it: a usage
    /// error under `--bisect` must stop the bisection too).
    static func asksForBisect(_ arguments: [String]) -> Bool {
        arguments.first { !$0.hasPrefix("-") } == configuration.commandName && arguments.contains("--bisect")
    }

    /// Under `--bisect`, the code of an error that ended the command: 128 (stop), unless it already
    /// stops the bisection (130 for Ctrl-C): never a code from 1 to 127, which would read as "bad".
    static func bisectCode(forError code: Int32) -> Int32 { code >= bisectAbort ? code : bisectAbort }

    func validate() throws {
        if let noise, !(0...RunPlan.maxNoise).contains(noise) {
            throw ValidationError("--noise must be 0...\(RunPlan.maxNoise), got \(noise)")
        }
    }

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        output.apply(to: console)
        let request = ReplayRequest(
            trace: trace, variant: variant.variant, noise: noise, build: BuildIdentity.current,
            judgeUnknownBuild: bisect)
        do {
            return try replay(request, context: context)
        } catch {
            // An error code from 1 to 127 would read as "bad" to git bisect: the bisection stops instead.
            guard bisect else { throw error }
            return Self.abortBisection(error.message, console: console, programName: context.programName)
        }
    }

    /// Reports `message` as the failure it is and returns 128. Not thrown: a `CommandFailure` carries
    /// a kind from the exit table, and 128 is no kind (it would be read back as 1, "bad").
    static func abortBisection(_ message: String, console: Console, programName: String) -> Int32 {
        console.err("\(programName): \(message)")
        console.json(
            ResultDocument(
                command: "replay", verdict: "error", exitCode: bisectAbort,
                members: [.init("error", .string(message))]
            ).text)
        return bisectAbort
    }

    private func replay(_ request: ReplayRequest, context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        // In a child whenever there is one (whatever the trace's ending says: a truncated or lying
        // trace can trap too); in this process a trace that records a crash is refused.
        let report = try TraceReplay.decide(request, catalog: context.catalog, isolation: context.isolation)
        return try present(report, console: console, programName: context.programName)
    }

    /// `--bisect`'s code for a replay: good (0) when this build passes, bad (1) when the recorded
    /// failure is still there (identical events of a failing recording, a failure, a crash), skip
    /// (125) when the replay could not decide.
    static func bisectStatus(of report: ReplayReport) -> Int32 {
        switch report.verdict {
        case .pass: ExitStatus.ok
        case .identical: report.outcome.isFailure ? ExitStatus.failure : ExitStatus.ok
        case .fail, .crashed: ExitStatus.failure
        case .inconclusive, .diverged: 125
        case .damaged: bisectAbort
        }
    }

    /// The exit status of a replay verdict (the exit table).
    static func status(of verdict: ReplayVerdict) -> Int32 {
        switch verdict {
        case .identical, .pass: ExitStatus.ok
        case .diverged, .fail, .crashed: ExitStatus.failure
        case .inconclusive: ExitStatus.inconclusive
        case .damaged: ExitStatus.badTrace
        }
    }

    /// Prints the report; its exit status.
    private func present(_ report: ReplayReport, console: Console, programName: String) throws(CommandFailure) -> Int32
    {
        let status = bisect ? Self.bisectStatus(of: report) : Self.status(of: report.verdict)
        if case .damaged(let message, let compared) = report.verdict {
            let text = "\(message) (\(compared) events compared before it)"
            guard !bisect else { return Self.abortBisection(text, console: console, programName: programName) }
            throw CommandFailure(status, text)
        }
        if report.recordingIsTruncated { console.err("note: \(trace) is truncated; replaying its readable prefix") }
        console.json(document(report, status: status).text)
        let title = "\(report.scenario)/\(report.variant) seed \(report.seed)"
        let outcome = report.outcome.isFailure ? "FAIL — \(report.outcome)" : "pass"
        if report.judgedAsOtherBuild {
            presentOtherBuild(report, title: title, console: console)
            return status
        }
        if report.onOtherVariant {
            for note in report.notes { console.err("note: \(note)") }
            let lead =
                "\(title): schedule of \(report.recordedVariant) replayed on \(report.variant)"
                + (report.noise != report.recordedNoise ? " with \(report.noise) noise lanes: " : ": ")
            switch report.verdict {
            case .crashed(let message, let at): console.verdict(lead + "CRASHED at event \(at): \(message)")
            case .fail(let outcome, _): console.verdict(lead + "FAIL — \(outcome)")
            case .inconclusive: console.verdict(lead + "passed, off the recorded schedule")
            default: console.verdict(lead + "pass")
            }
            if case .crashed = report.verdict { return status }
            console.out(report.tally.line)
            switch report.verdict {
            case .inconclusive(let reason):
                console.out("inconclusive: \(Self.inconclusiveText(reason, variant: report.variant))")
            case .pass(let evidence?), .fail(_, let evidence?):
                console.out("race removed: \(evidence.line(variant: report.variant))")
            default: break
            }
            return status
        }
        switch report.verdict {
        case .diverged(_, let lines):
            console.verdict("\(title): DIVERGED")
            for line in lines { console.out(line) }
            for note in report.notes { console.err("note: \(note)") }
        case .inconclusive:
            console.verdict(
                "\(title): inconclusive — identical up to the truncation point: \(report.eventsCompared) events; the recording ends there, before its verdict; the replay went on to \(report.eventCount) events, verdict \(report.outcome.isCrash ? "CRASHED — \(report.outcome.message)" : outcome)"
            )
            if !report.outcome.isCrash { console.out(report.tally.line) }
        case .identical where report.outcome.isCrash:
            console.verdict(
                "\(title): identical — crashed at event \(report.eventCount) (\(crashPlace(report.lastEventText))): \(report.outcome.message)"
            )
            if let recorded = report.recorded, recorded.message != report.outcome.message {
                console.err("note: recorded message was: \(recorded.message)")
            }
            for line in try CrashContext(path: trace).lines { console.out(line) }
        default:
            console.verdict(
                "\(title): identical — \(report.eventsCompared) events, digest \(report.digest); verdict \(outcome) (recorded: \(report.recorded.map { "\($0)" } ?? "none (truncated)"))"
            )
            console.out(report.tally.line)
        }
        return status
    }

    /// A replay that judged this build: the replayed verdict beside the recorded one, which builds,
    /// and what could not be followed.
    private func presentOtherBuild(_ report: ReplayReport, title: String, console: Console) {
        for note in report.notes { console.err("note: \(note)") }
        let recorded = report.recorded.map { $0.isFailure ? "FAIL — \($0)" : "pass" } ?? "none (truncated)"
        let onBuild =
            "\(title): on this build: "
            + (report.variant != report.recordedVariant ? "(schedule of \(report.recordedVariant)) " : "")
        switch report.verdict {
        case .fail(let outcome, nil):
            console.verdict(onBuild + "still fails — FAIL — \(outcome) (recorded: \(recorded))")
        case .fail(let outcome, _?):
            console.verdict(
                onBuild + "fails — the recorded race cannot happen here, but a campaign found FAIL — \(outcome) "
                    + "(recorded: \(recorded))")
        case .crashed(let message, let at):
            console.verdict(onBuild + "still fails — CRASHED at event \(at): \(message) (recorded: \(recorded))")
        case .pass(nil):
            console.verdict(onBuild + "passes with every non-fifo decision followed (recorded: \(recorded))")
        case .pass(_?):
            console.verdict(
                onBuild + "passes — the recorded race cannot happen here, and a campaign found no failure "
                    + "(recorded: \(recorded))")
        default:
            let replayed = report.outcome.isFailure ? "FAIL — \(report.outcome)" : "pass"
            console.verdict(
                onBuild + "inconclusive — replayed \(replayed) off the recorded schedule (recorded: \(recorded))")
        }
        console.out(
            "recorded by build \(Self.buildName(report.recordedBuild)), replayed on build \(Self.buildName(report.build))"
                + (report.eventsCompared > 0
                    ? "; the events are identical (\(report.eventsCompared) events, digest \(report.digest))"
                    : "; the schedule was followed by identity"))
        if case .crashed = report.verdict { return }
        console.out(report.tally.line)
        switch report.verdict {
        case .pass(let evidence?), .fail(_, let evidence?):
            let target = report.variant == report.recordedVariant ? "this build" : "this build's \(report.variant)"
            console.out("race removed: \(evidence.line(variant: target))")
        default: break
        }
        if case .inconclusive(let reason) = report.verdict {
            switch reason {
            case .unfollowed(let decisions) where !decisions.isEmpty:
                console.out(
                    "inconclusive: these decisions could not be followed on this build — the recorded race was not tested:"
                )
                for decision in decisions {
                    console.out("  decision \(decision.number) (\(decision.summary)): \(decision.why)")
                }
            default: console.out("inconclusive: \(Self.inconclusiveText(reason, variant: report.variant))")
            }
        }
    }

    /// A build as the header names it, or `unknown`.
    static func buildName(_ build: String) -> String { build.isEmpty ? "unknown" : build }

    /// The `inconclusive:` line.
    static func inconclusiveText(_ reason: InconclusiveReason, variant: String) -> String {
        switch reason {
        case .unfollowed(let decisions):
            guard let first = decisions.first else {
                return
                    "a decision could not be followed on variant \(variant) — the fix was not tested on this schedule"
            }
            let more = decisions.count > 1 ? " (and \(decisions.count - 1) more)" : ""
            return "decision \(first.number) (\(first.summary)) could not be followed on variant \(variant)\(more)"
                + " — the fix was not tested on this schedule"
        case .scheduleProblem(let problem): return "\(problem) — the fix was not tested on this schedule"
        case .truncated:
            return
                "the trace is truncated: only a prefix of its schedule was followed — the fix was not tested on the whole schedule"
        }
    }

    /// The `--json` document of a replay.
    private func document(_ report: ReplayReport, status: Int32) -> ResultDocument {
        var members: [JSONValue.Member] = [
            .init("recordedVariant", .string(report.recordedVariant)), .init("trace", .string(trace)),
            .init("outcome", ResultDocument.outcome(report.outcome)),
            .init("findings", ResultDocument.findings(report.outcome, seed: report.seed, trace: trace)),
            .init("digest", .string(report.digest.description)),
            .init("notes", .array(report.notes.map { .string($0) })),
            .init("followed", .string(report.tally.line)),
        ]
        if case .inconclusive(let reason) = report.verdict {
            members.append(.init("reason", .string(Self.inconclusiveText(reason, variant: report.variant))))
        }
        switch report.verdict {
        case .pass(let evidence?), .fail(_, let evidence?):
            members.append(
                .init(
                    "raceRemoved",
                    .object([
                        "decisions": .array(evidence.unfollowed.map { .int(Int64($0.number)) }),
                        "reasons": .array(evidence.unfollowed.map { .string($0.reason) }),
                        "cancelled": .bool(evidence.unfollowed.contains { $0.cancelled }),
                        "strategy": .string(evidence.strategy),
                        "seeds": .string("\(evidence.seeds.lowerBound)..<\(evidence.seeds.upperBound)"),
                        "failures": .int(Int64(evidence.failures)),
                    ])))
        default: break
        }
        members += [
            .init("recordedBuild", .string(report.recordedBuild)), .init("build", .string(report.build)),
            .init("otherBuild", .bool(report.judgedAsOtherBuild)),
        ]
        if case .inconclusive(.unfollowed(let decisions)) = report.verdict {
            members.append(
                .init(
                    "unfollowed",
                    .array(
                        decisions.map {
                            .object([
                                "decision": .int(Int64($0.number)), "summary": .string($0.summary),
                                "reason": .string($0.reason), "why": .string($0.why),
                                "cancelled": .bool($0.cancelled),
                            ])
                        })))
        }
        if bisect { members.append(.init("bisect", .int(Int64(status)))) }
        if !report.onOtherVariant && !report.judgedAsOtherBuild {
            let lines: [String]
            if case .diverged(_, let divergence) = report.verdict { lines = divergence } else { lines = [] }
            members += [
                .init("eventsCompared", .unsigned(report.eventsCompared)),
                .init("recorded", report.recorded.map { ResultDocument.outcome($0) } ?? .null),
                .init("truncated", .bool(report.recordingIsTruncated)),
                .init("divergence", .array(lines.map { .string($0) })),
            ]
        }
        return ResultDocument(
            command: "replay", verdict: report.verdict.name, exitCode: status,
            members: ResultDocument.run(
                scenario: report.scenario, variant: report.variant, strategy: report.strategy, seed: report.seed)
                + members)
    }
}
