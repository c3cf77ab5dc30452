import SimCore

/// The text timeline of a trace (`simrun show`, and the first failure `fuzz` finds), streamed: a
/// job per `▶` line with its events indented under it, decisions that depart from fifo marked `*`,
/// the oracle failure marked `!!`, and the footer's verdict and counts. A rendering like the
/// exporters beside it, so it lives with them rather than with the command that prints it.
public struct Timeline {
    /// The trace to render (read from its current position).
    public let reader: TraceReader
    /// Events shown at most; the rest are counted.
    public let limit: Int
    /// Task identities whole (`--full-names`), instead of `ShortTaskNames`' short form.
    public let fullTaskNames: Bool

    /// A timeline of `reader`'s trace showing at most `limit` events, task identities short unless
    /// `fullTaskNames`.
    public init(reader: TraceReader, limit: Int, fullTaskNames: Bool = false) {
        self.reader = reader
        self.limit = limit
        self.fullTaskNames = fullTaskNames
    }

    /// Renders the trace, one line at a time to `line`.
    public func write(to line: (String) -> Void) throws(TraceError) {
        let names = { (text: String) in fullTaskNames ? text : ShortTaskNames.shorten(text) }
        try render(to: { line(names($0)) }, verdict: line, lane: names)
    }

    /// Renders with `line` for the timeline's lines, `verdict` for the footer's (the verdict message as
    /// recorded, as every other command prints it), `name` for lane names.
    private func render(to line: (String) -> Void, verdict: (String) -> Void, lane name: (String) -> String)
        throws(TraceError)
    {
        let header = reader.header
        line(
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
                let lane = name(text.text(event.lane)).padding(14)
                if kind == pick {
                    let ordinal =
                        event.fields.first.map { field -> String in
                            if case .int(let n) = field.value { return "#\(n)" } else { return "" }
                        } ?? ""
                    let timer = event.fields.contains { text.text($0.key) == "timer" } ? " (timer)" : ""
                    line("  \(time) \(lane) ▶ \(text.text(event.subject))\(ordinal)\(timer)")
                } else if kind == "oracle.fail" {
                    line("!! \(time) \(lane) \(text.text(event.subject)): \(text.fields(event))")
                } else if let call = text.actorCall(event) {
                    // An actor's drain job names each caller whose call it runs, and the actor's type.
                    line("  \(time) \(lane)   \(call)")
                } else {
                    let subject = text.text(event.subject)
                    let fields = text.fields(event)
                    line(
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
                line(" \(mark)\("".padding(8)) \("".padding(14)) decision \(decisionNumber): \(what)")
            case .footer(let found):
                footer = found
            case .checkpoint:
                break
            }
        }
        if hidden > 0 { line("  … \(hidden) more events (raise --limit)") }
        if let footer {
            let outcome = footer.verdict.isFailure ? "FAIL — \(footer.verdict)" : "pass"
            verdict(
                "verdict: \(outcome)\n\(footer.eventCount) events, \(footer.decisionCount) decisions (\(deviations) differ from fifo), \(footer.steps) steps, ends at \(EventText.time(footer.endTime)), digest \(footer.digest)"
            )
        } else {
            line("verdict: none — the trace is truncated after its last checkpoint")
        }
    }
}
