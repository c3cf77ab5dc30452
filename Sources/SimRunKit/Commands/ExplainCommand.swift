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

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        output.apply(to: context.console)
        let input = try TraceInput(path: trace)
        let footer = try Self.footer(of: input, trace: trace)
        let crashed = footer.verdict.isCrash
        if crashed { _ = try context.isolation.launcher(for: "\(trace): the recorded run crashed; explaining it") }
        let runs = self.runs ?? (crashed ? Self.crashRuns : 100)
        guard footer.verdict.isFailure else {
            throw CommandFailure(ExitStatus.usage, "\(trace): the recorded run did not fail; nothing to explain")
        }
        // The re-fuzzed runs may trap (a model that crashes on another schedule): they run in a
        // child (`RerunCommand`, told what to explain by a typed request), and a trap there is
        // reported as a crash finding, never the end of this process.
        let request = TraceExplanation.Request(
            trace: trace, runs: runs, jobs: jobs, context: self.context, output: output.request)
        if let outcome = try RerunCommand.run(.explain(request), context: context) {
            return ChildCrashReport.status(of: outcome, command: "explain", trace: trace, console: context.console)
        }
        return try TraceExplanation(request: request).execute(input: input, footer: footer, context: context)
    }

    /// The trace's footer: explaining needs the failure to measure.
    static func footer(of input: TraceInput, trace: String) throws(CommandFailure) -> TraceFooter {
        guard let footer = input.footer else {
            throw CommandFailure(
                ExitStatus.badTrace,
                "\(trace): at decompressed byte \(input.endOffset): expected the footer with the run's verdict (the trace is truncated after event \(input.eventCount); explaining needs the failure to measure)"
            )
        }
        return footer
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
    /// How task identities are printed in the table (`Console.taskNames`: short unless `--full-names`).
    var names: (String) -> String = { $0 }

    private func rate(_ failures: Int) -> String {
        let percent = String(format: 100 * Double(failures) / Double(explanation.runs), decimals: 1) + "%"
        return String(repeating: " ", count: max(0, 6 - percent.count)) + percent
    }

    private func what(_ row: Explainer.Row) -> String { names(row.took) }

    private func overtaken(_ row: Explainer.Row) -> String? { row.offer?.overtaken.map { names($0.description) } }

    func table() -> [String] {
        let rows = explanation.rows
        let takenWidth = max(12, rows.map { what($0).count }.max() ?? 0)
        let overWidth = max(18, rows.map { (overtaken($0) ?? "").count }.max() ?? 0)
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
            line += (overtaken(row) ?? "-").padding(overWidth) + "  "
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
