import ArgumentParser
import SimCore
import SimEngine
import SimTrace

struct ShowCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print a trace as a readable timeline.",
        discussion: """
            Each job starts with ▶ (lane/label#ordinal); the events it recorded follow, indented. Decisions \
            that depart from fifo are marked with *; the oracle failure is marked with !!.

            \(ExitStatus.helpText(for: codes))
            """)

    /// The codes `show` can return (the exit-code test walks each one).
    static let codes = [ExitStatus.ok, ExitStatus.usage, ExitStatus.badTrace, ExitStatus.missingInput]

    @Argument(help: "The .simtrace file.") var trace: String
    @Option(
        parsing: .unconditional, help: "Print at most this many events.", transform: NumberArgument.int(0...Int.max))
    var limit: Int = 5_000

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        do {
            let reader = try TraceReader(path: trace)
            try Timeline(reader: reader, limit: limit).write(to: context.console)
        } catch {
            throw TraceInput.failure(error)
        }
        return ExitStatus.ok
    }
}

/// The `show` rendering of a trace, streamed.
struct Timeline {
    let reader: TraceReader
    let limit: Int

    func write(to console: Console) throws(TraceError) {
        let header = reader.header
        console.out(
            "trace \(header.scenario)/\(header.variant)  seed \(header.seed)  strategy \(header.strategy)  simrun \(header.toolVersion)"
        )
        let text = EventText { reader.text($0) }
        var shown = 0
        var hidden = 0
        var decisionNumber = 0
        var deviations = 0
        var footer: TraceFooter?
        let pick = "sched.pick"
        while let record = try reader.next() {
            switch record {
            case .event(let event):
                guard shown < limit else {
                    hidden += 1
                    continue
                }
                shown += 1
                let kind = text.text(event.kind)
                let time = EventText.time(event.time).padding(8)
                let lane = text.text(event.lane).padding(14)
                if kind == pick {
                    let ordinal =
                        event.fields.first.map { field -> String in
                            if case .int(let n) = field.value { return "#\(n)" } else { return "" }
                        } ?? ""
                    let timer = event.fields.contains { text.text($0.key) == "timer" } ? " (timer)" : ""
                    console.out("  \(time) \(lane) ▶ \(text.text(event.subject))\(ordinal)\(timer)")
                } else if kind == "oracle.fail" {
                    console.out("!! \(time) \(lane) \(text.text(event.subject)): \(text.fields(event))")
                } else {
                    let subject = text.text(event.subject)
                    let fields = text.fields(event)
                    console.out(
                        "  \(time) \(lane)   \(kind)\(subject.isEmpty ? "" : " " + subject)\(fields.isEmpty ? "" : "  " + fields)"
                    )
                }
            case .decision(let decision):
                decisionNumber += 1
                if decision.isDeviation { deviations += 1 }
                guard shown < limit else { continue }
                let mark = decision.isDeviation ? "*" : " "
                let what: String
                if decision.kind == .pick {
                    what =
                        "pick \(text.text(decision.lane))/\(text.text(decision.label))#\(decision.ordinal) (option \(decision.chosen + 1) of \(decision.count); fifo: \(decision.fallback + 1))"
                } else {
                    what =
                        "\(decision.kind.name) \(text.text(decision.label)) = \(decision.chosen) of \(decision.count)"
                }
                console.out(" \(mark)\("".padding(8)) \("".padding(14)) decision \(decisionNumber): \(what)")
            case .footer(let found):
                footer = found
            case .checkpoint:
                break
            }
        }
        if hidden > 0 { console.out("  … \(hidden) more events (raise --limit)") }
        if let footer {
            let verdict = footer.verdict.isFailure ? "FAIL — \(footer.verdict)" : "pass"
            console.out(
                "verdict: \(verdict)\n\(footer.eventCount) events, \(footer.decisionCount) decisions (\(deviations) differ from fifo), \(footer.steps) steps, ends at \(EventText.time(footer.endTime)), digest \(footer.digest)"
            )
        } else {
            console.out("verdict: none — the trace is truncated after its last checkpoint")
        }
    }
}
