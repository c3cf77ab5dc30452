import ArgumentParser
import SimCore
import SimEngine
import SimTrace

struct ExplainCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Name the decision of a failing trace after which its failure is certain.",
        discussion: """
            For each decision i, the trace's first i decisions are kept and the rest re-fuzzed --runs times \
            (random, seeds 0..<runs); the table gives how often the same failure still happens. The rates \
            depend only on the trace and --runs, never on --jobs. Exit 0 when explained, 1 when the failure \
            does not reproduce even with the whole schedule kept, 64 when the recorded run did not fail.

            A trace that ends in a crash is explained the same way, each re-fuzzed run recorded in a child \
            process of its own (a run counts when it traps with the same message); --runs defaults to 20 there, \
            as every run is a process.

            \(ExitStatus.helpText(for: codes))
            """)

    /// The codes `explain` can return (the exit-code test walks each one).
    static let codes = [
        ExitStatus.ok, ExitStatus.failure, ExitStatus.usage, ExitStatus.badTrace, ExitStatus.missingInput,
        ExitStatus.cannotWrite, ExitStatus.interrupted,
    ]

    @Argument(help: "The failing .simtrace file.") var trace: String
    @Option(
        parsing: .unconditional, help: "Re-fuzzed runs per decision.", transform: NumberArgument.int(1...1_000_000))
    var runs: Int?
    @Option(
        parsing: .unconditional, help: "Worker threads, one simulation each.", transform: NumberArgument.int(1...256))
    var jobs: Int = 2
    @Option(
        parsing: .unconditional, help: "Events of the timeline shown around the decisive decision.",
        transform: NumberArgument.int(0...100))
    var context: Int = 4
    @OptionGroup var output: OutputOptions
    /// Set by the parent on the child it runs the explanation in (`GuardedRun`).
    @Flag(help: .hidden) var guarded = false

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        output.apply(to: context.console)
        let input = try TraceInput(path: trace)
        guard let footer = input.footer else {
            throw CommandFailure(
                ExitStatus.badTrace,
                "\(trace): at decompressed byte \(input.endOffset): expected the footer with the run's verdict (the trace is truncated after event \(input.eventCount); explaining needs the failure to measure)"
            )
        }
        let crashed = footer.verdict.isCrash
        if crashed && !ChildProcess.isAvailable {
            throw CommandFailure(
                ExitStatus.usage,
                "\(trace): the recorded run crashed; explaining it runs every schedule in a child process, which only a binary built on SimRun.main provides"
            )
        }
        let runs = self.runs ?? (crashed ? Self.crashRuns : 100)
        guard footer.verdict.isFailure else {
            throw CommandFailure(ExitStatus.usage, "\(trace): the recorded run did not fail; nothing to explain")
        }
        // The re-fuzzed runs may trap (a model that crashes on another schedule): they run in a
        // child, and a trap there is reported as a crash finding, never the end of this process.
        if !guarded, let termination = try GuardedRun.inChild() {
            return GuardedRun.status(of: termination, command: "explain", trace: trace, console: context.console)
        }
        let plan = try input.plan(in: context.catalog)
        let console = context.console
        let target = FailureSignature(footer.verdict)
        console.out(
            "explain \(input.header.scenario)/\(plan.variant) seed \(input.header.seed): \(footer.verdict)")
        console.out(
            "each row keeps the trace's decisions up to it and re-fuzzes the rest \(runs) times (random, seeds 0..<\(runs))"
        )
        let explainer = Explainer(plan: plan, input: input, target: target, runs: runs, jobs: jobs)
        let progress = { (done: Int, total: Int) in console.progress("  keeping \(done) of \(total - 1) decisions") }
        let explanation =
            crashed ? try explainer.explainCrash(progress: progress) : explainer.explain(progress: progress)
        console.endProgress()
        for note in explanation.notes { console.err("note: \(note)") }
        let report = ExplanationText(explanation: explanation)
        for line in report.table() { console.out(line) }
        console.out("")
        if console.outputStyle == .quiet {
            // Alone, the sentence does not announce a timeline that is not printed.
            let sentence = report.sentence()
            let lead = "; the timeline around it:"
            console.verdict(sentence.hasSuffix(lead) ? String(sentence.dropLast(lead.count)) + "." : sentence)
        } else {
            console.out(report.sentence())
        }
        if let index = explanation.decisive {
            let around = try timeline(around: explanation.rows[index].decision.afterEvent)
            for line in around { console.out(line) }
        }
        // A crash cannot be re-run in this process (it would end simrun): its race is not looked for.
        var races: RaceFinder.Report?
        if case .crashed = footer.verdict {
            races = nil
        } else {
            races = RaceFinder(plan: plan, seed: input.header.seed, tape: input.tape, target: target).find()
        }
        console.out("")
        console.out(races.map(Self.raceLine) ?? Self.crashRaceLine)
        let status = explanation.reproduces ? ExitStatus.ok : ExitStatus.failure
        console.json(
            document(explanation, input: input, plan: plan, status: status, sentence: report.sentence(), races: races)
                .text)
        return status
    }

    /// Re-fuzzed runs per decision of a crash trace when `--runs` is not given (each is a process).
    static let crashRuns = 20

    /// The race, in one line: the non-fifo decision whose flip back to fifo removes the failure.
    static let crashRaceLine =
        "The race: not looked for — the trace ends in a crash, and naming the race re-runs the recorded schedule in this process."

    static func raceLine(_ races: RaceFinder.Report) -> String {
        if races.failsUnderFifo {
            return "The race: none — with every decision sent back to fifo the run fails the same way."
        }
        guard races.reproduces else {
            return "The race: not named — the trace's schedule, kept by job identity, no longer fails this way."
        }
        if let race = races.race {
            return
                "The race: \(race.sentence); sent back to fifo with every other decision kept, the failure goes away (\(races.flips.count) non-fifo decision\(races.flips.count == 1 ? "" : "s") flipped one at a time)."
        }
        if races.flips.contains(where: \.removesFailure) {
            return
                "The race: not named — only decisions that move noise remove the failure when sent back to fifo (\(races.flips.count) flipped)."
        }
        return
            "The race: not named — no single non-fifo decision sent back to fifo removes the failure (\(races.flips.count) flipped; it takes several together)."
    }

    /// The `--json` document: every row's failing fraction and the decisive decision's number.
    private func document(
        _ explanation: Explainer.Explanation, input: TraceInput, plan: RunPlan, status: Int32, sentence: String,
        races: RaceFinder.Report?
    ) -> ResultDocument {
        let race: JSONValue =
            races?.race.map { race in
                .object([
                    "decision": .int(Int64(race.number)), "took": .string(race.job.description),
                    "overtook": .array(race.overtook.map { .string($0.description) }),
                ])
            } ?? .null
        let fraction = { (failures: Int) -> JSONValue in
            .number(Double(failures) / Double(explanation.runs), decimals: 4)
        }
        let rows = explanation.rows.map { row -> JSONValue in
            .object([
                "decision": .int(Int64(row.number)), "kind": .string(row.decision.kind.name),
                "deviation": .bool(row.decision.isDeviation),
                "took": .optional((row.offer?.taken ?? row.job)?.description),
                "overtook": .optional(row.offer?.overtaken?.description),
                "time": .int(row.time), "failing": fraction(row.failures),
            ])
        }
        let verdict = input.footer?.verdict ?? .pass
        return ResultDocument(
            command: "explain", verdict: explanation.reproduces ? "explained" : "not-reproduced", exitCode: status,
            members: ResultDocument.run(
                scenario: input.header.scenario, variant: plan.variant, strategy: input.header.strategy,
                seed: input.header.seed)
                + [
                    .init("trace", .string(trace)), .init("outcome", ResultDocument.outcome(verdict)),
                    .init("runs", .int(Int64(explanation.runs))), .init("baseline", fraction(explanation.baseline)),
                    .init("rows", .array(rows)),
                    .init("decisive", explanation.decisive.map { .int(Int64(explanation.rows[$0].number)) } ?? .null),
                    .init("sentence", .string(sentence)), .init("race", race),
                    .init("flipped", races.map { .int(Int64($0.flips.count)) } ?? .null),
                    .init("failsUnderFifo", races.map { .bool($0.failsUnderFifo) } ?? .null),
                    // The failure explained, when it reproduces (every document has `findings`: "Exit codes and the JSON schema").
                    .init(
                        "findings",
                        explanation.reproduces
                            ? ResultDocument.findings(verdict, seed: input.header.seed, trace: trace) : .array([])),
                ])
    }

    /// The trace's events just before and after `event`, streamed from the file.
    private func timeline(around event: EventID) throws(CommandFailure) -> [String] {
        let first = event > UInt64(context) ? event - UInt64(context) + 1 : 1
        let last = event + UInt64(context) + 1
        do {
            let reader = try TraceReader(path: trace)
            let text = EventText { reader.text($0) }
            var lines: [String] = []
            var decisions = 0
            while let record = try reader.next() {
                switch record {
                case .event(let recorded):
                    if recorded.seq > last { return lines }
                    if recorded.seq >= first {
                        lines.append(Self.line(recorded, text: text, marked: recorded.seq == event + 1))
                    }
                case .decision(let decision):
                    decisions += 1
                    if decision.afterEvent == event && decision.kind == .pick {
                        lines.append(
                            "    \("".padding(8)) \("".padding(14)) decision \(decisions): pick \(text.text(decision.lane))/\(text.text(decision.label))#\(decision.ordinal) (option \(decision.chosen + 1) of \(decision.count); fifo: \(decision.fallback + 1))"
                        )
                    } else if decision.afterEvent == event {
                        lines.append(
                            "    \("".padding(8)) \("".padding(14)) decision \(decisions): \(decision.kind.name) \(text.text(decision.label)) = \(decision.chosen) of \(decision.count)"
                        )
                    }
                case .footer, .checkpoint:
                    break
                }
            }
            return lines
        } catch {
            throw TraceInput.failure(error)
        }
    }
}

extension ExplainCommand {
    /// One event as `show` prints it: time, lane, then `▶ label#n` for a job or the event itself.
    static func line(_ event: Event, text: EventText, marked: Bool) -> String {
        let lead = marked ? "  → " : "    "
        let time = EventText.time(event.time).padding(8)
        let lane = text.text(event.lane).padding(14)
        let kind = text.text(event.kind)
        let subject = text.text(event.subject)
        if kind == "sched.pick" {
            let ordinal =
                event.fields.first.map { field -> String in
                    if case .int(let n) = field.value { return "#\(n)" } else { return "" }
                } ?? ""
            return "\(lead)\(time) \(lane) ▶ \(subject)\(ordinal)"
        }
        if let call = text.actorCall(event) { return "\(lead)\(time) \(lane)   \(call)" }
        let fields = text.fields(event)
        let bang = kind == "oracle.fail" ? "!! " : ""
        return
            "\(lead)\(time) \(lane)   \(bang)\(kind)\(subject.isEmpty ? "" : " " + subject)\(fields.isEmpty ? "" : "  " + fields)"
    }
}

/// The table and the one sentence of `explain`.
struct ExplanationText {
    let explanation: Explainer.Explanation

    private func rate(_ failures: Int) -> String {
        let percent = String(format: 100 * Double(failures) / Double(explanation.runs), decimals: 1) + "%"
        return String(repeating: " ", count: max(0, 6 - percent.count)) + percent
    }

    private func what(_ row: Explainer.Row) -> String { row.took }

    func table() -> [String] {
        let rows = explanation.rows
        let takenWidth = max(12, rows.map { what($0).count }.max() ?? 0)
        let overWidth = max(18, rows.map { ($0.offer?.overtaken?.description ?? "").count }.max() ?? 0)
        var lines = [
            "decision  " + "took".padding(takenWidth) + "  " + "overtook (fifo)".padding(overWidth) + "  "
                + "time".padding(8) + "  failing"
        ]
        lines.append(
            "       -  " + "(nothing kept)".padding(takenWidth) + "  " + "".padding(overWidth) + "  "
                + "".padding(8) + "  " + rate(explanation.baseline))
        for (index, row) in rows.enumerated() {
            let number = String(row.number)
            let mark = row.decision.isDeviation ? "*" : " "
            var line = String(repeating: " ", count: max(0, 7 - number.count)) + number + mark + " "
            line += what(row).padding(takenWidth) + "  "
            line += (row.offer?.overtaken?.description ?? "-").padding(overWidth) + "  "
            line += EventText.time(row.time).padding(8) + "  " + rate(row.failures)
            if index == explanation.decisive { line += "  ◀ certain from here" }
            lines.append(line)
        }
        return lines
    }

    func sentence() -> String {
        let e = explanation
        guard e.reproduces else {
            let last = e.rows.last?.failures ?? e.baseline
            return
                "The failure is not certain even with the whole schedule kept (\(rate(last).trimmingLeadingSpaces) of runs): the scenario may not be deterministic, or the trace was recorded by another build."
        }
        guard let index = e.decisive else {
            return
                "The failure is certain from the start: every schedule tried fails the same way, so no decision causes it."
        }
        let row = e.rows[index]
        let before = index == 0 ? e.baseline : e.rows[index - 1].failures
        let odds = "the failure rose from \(rate(before).trimmingLeadingSpaces) to 100% of re-fuzzed runs"
        let at = "at virtual time \(EventText.time(row.time))"
        guard let offer = row.offer, let taken = offer.taken else {
            return
                "The bug became certain at decision \(row.number), \(row.took) \(at): \(odds); the timeline around it:"
        }
        let overtook: String
        if let overtaken = offer.overtaken {
            overtook =
                "ahead of \(overtaken.label)#\(overtaken.ordinal) on lane \(overtaken.lane), which fifo would have run"
        } else {
            let others = offer.candidates.enumerated().filter { $0.offset != offer.chosen }.map { "\($0.element)" }
            overtook = "(the fifo choice) ahead of \(others.joined(separator: ", "))"
        }
        return
            "The bug became certain at decision \(row.number): \(at) the scheduler ran \(taken.label)#\(taken.ordinal) on lane \(taken.lane) \(overtook), and \(odds); the timeline around it:"
    }
}

extension String {
    var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
