import ArgumentParser
import SimCore
import SimEngine
import SimTrace

/// One `simrun explain`, from the options the parent parsed (``Request``): explained and printed
/// by the child (`RerunCommand`), or by the command itself when there is no child.
struct TraceExplanation {
    /// What `explain` asks of the child it explains in: the trace (already a file: a trace read from
    /// a pipe was spooled by the parent) and the options as the parent parsed or resolved them.
    struct Request: Sendable, Equatable, Codable {
        /// The trace explained, as the parent reads it (a spooled copy of a pipe).
        var trace: String
        /// Re-fuzzed runs per decision (resolved: `--runs`, or the default for the trace's verdict).
        var runs: Int
        /// Worker threads (`--jobs`).
        var jobs: Int
        /// Timeline events shown around the decisive decision (`--context`).
        var context: Int
        /// The console's styles (`--json`, `--quiet`, `--progress`).
        var output: CommandOutput
    }

    /// The options of the explanation.
    let request: Request

    /// The trace explained.
    var trace: String { request.trace }
    /// Timeline events shown around the decisive decision.
    var context: Int { request.context }

    /// Explains `input` (the request's trace, whose `footer` says how it failed) and prints the table,
    /// the sentence, the timeline and the race.
    func execute(input: TraceInput, footer: TraceFooter, context: CommandContext) throws(CommandFailure) -> Int32 {
        let (runs, jobs) = (request.runs, request.jobs)
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
        let explanation = try explainer.explain(isolation: context.isolation, progress: progress)
        console.endProgress()
        for note in explanation.notes { console.err("note: \(note)") }
        let report = ExplanationText(explanation: explanation, names: console.taskNames)
        for line in report.table() { console.out(line) }
        console.out("")
        if console.outputStyle == .quiet {
            // Alone, the sentence does not announce a timeline that is not printed.
            let sentence = console.taskNames(report.sentence())
            let lead = "; the timeline around it:"
            console.verdict(sentence.hasSuffix(lead) ? String(sentence.dropLast(lead.count)) + "." : sentence)
        } else {
            console.out(console.taskNames(report.sentence()))
        }
        if let index = explanation.decisive {
            let around = try timeline(around: explanation.rows[index].decision.afterEvent)
            for line in around { console.out(console.taskNames(line)) }
        }
        // A crash cannot be re-run in this process (it would end simrun): its race is not looked for.
        var races: RaceFinder.Report?
        if case .crashed = footer.verdict {
            races = nil
        } else {
            races = RaceFinder(plan: plan, seed: input.header.seed, tape: input.tape, target: target).find()
        }
        console.out("")
        console.out(console.taskNames(races.map(ExplainCommand.raceLine) ?? ExplainCommand.crashRaceLine))
        if let library = CrashPlace.libraryLine(footer.trapFrames) { console.out(library.prefix(1).uppercased() + library.dropFirst() + ".") }
        let status = explanation.reproduces ? ExitStatus.ok : ExitStatus.failure
        console.json(
            document(explanation, input: input, plan: plan, status: status, sentence: report.sentence(), races: races)
                .text)
        return status
    }

    /// The `--json` document: every row's failing fraction and the decisive decision's number.
    func document(
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
                    .init("library", .optional(FuzzCommand.crashLibrary(trace))),
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
    func timeline(around event: EventID) throws(CommandFailure) -> [String] {
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
                        lines.append(ExplainCommand.line(recorded, text: text, marked: recorded.seq == event + 1))
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
