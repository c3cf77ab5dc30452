import SimCore

/// Writes a trace as JSON Lines: one self-contained JSON object per line, for scripts (`jq`, pandas).
///
/// Schema `simrun.jsonl/1` (stable: fields may be added, none renamed or removed within a version).
/// Every line has `"type"`; strings are written out (no symbol numbers); lines come in trace order.
///
/// - `schema`: `{"type":"schema","schema":"simrun.jsonl/1","doc":"…"}` — always the first line.
/// - `header`: `formatVersion`, `toolVersion`, `scenario`, `variant`, `seed`, `strategy`,
///   `options` as `[[key, value], …]` (strings, in recorded order), and `build` (the recording
///   program's build id or label; empty when unknown).
/// - `event`: `seq` (1-based), `time` (virtual ns), `lane`, `kind`, `subject`, `fields` as
///   `[[key, value], …]` in recorded order (value: number, boolean or string), `cause` (a `seq`, 0 = none).
/// - `decision`: `index` (1-based, as `show` numbers them), `kind` (`pick`, `choose`, `buggify`,
///   `permute`), `chosen`, `count`, `fallback` (the `fifo` option), `lane`, `label`, `ordinal`,
///   `afterEvent` (the last event's `seq` before it).
/// - `footer`: `events`, `decisions`, `steps`, `endTime`, `verdict` (`pass`, `fail`, `step-limit`,
///   `time-limit`, `pending`, `crashed`), `verdictCode`, `oracle`, `message`, `digest` (16 hex digits).
/// - `truncated`: in place of a footer when the trace was cut short: `events`, `decisions` read.
public struct JSONLinesExporter {
    /// The schema name and version written on the first line.
    public static let schema = "simrun.jsonl/1"

    /// The trace being exported, read once from its current position.
    public let reader: TraceReader

    /// Exports the trace `reader` is positioned at the start of.
    public init(reader: TraceReader) { self.reader = reader }

    /// Streams every record to `sink`.
    public func write(to sink: any ExportSink) throws(TraceError) {
        try sink.line(
            JSONText.object([
                ("type", JSONText.quoted("schema")), ("schema", JSONText.quoted(Self.schema)),
                (
                    "doc",
                    JSONText.quoted("one JSON object per line; see JSONLinesExporter or the article 'The trace format'")
                ),
            ]))
        let header = reader.header
        let options = header.options.map { "[\(JSONText.quoted($0.key)),\(JSONText.quoted($0.value))]" }
        try sink.line(
            JSONText.object([
                ("type", JSONText.quoted("header")), ("formatVersion", String(header.formatVersion)),
                ("toolVersion", JSONText.quoted(header.toolVersion)), ("scenario", JSONText.quoted(header.scenario)),
                ("variant", JSONText.quoted(header.variant)), ("seed", String(header.seed)),
                ("strategy", JSONText.quoted(header.strategy)), ("options", "[" + options.joined(separator: ",") + "]"),
                ("build", JSONText.quoted(header.build)),
            ]))
        var decisions = 0
        var sawFooter = false
        while let record = try reader.next() {
            switch record {
            case .event(let event):
                try sink.line(line(for: event))
            case .decision(let decision):
                decisions += 1
                try sink.line(line(for: decision, index: decisions))
            case .footer(let footer):
                sawFooter = true
                try sink.line(line(for: footer))
            case .checkpoint:
                break
            }
        }
        if !sawFooter {
            try sink.line(
                JSONText.object([
                    ("type", JSONText.quoted("truncated")), ("events", String(reader.eventCount)),
                    ("decisions", String(reader.decisionCount)),
                ]))
        }
    }

    private func string(_ symbol: Symbol) -> String { JSONText.quoted(reader.text(symbol)) }

    func line(for event: Event) -> String {
        let fields = event.fields.map { "[\(string($0.key)),\(value($0.value))]" }
        return JSONText.object([
            ("type", JSONText.quoted("event")), ("seq", String(event.seq)), ("time", String(event.time)),
            ("lane", string(event.lane)), ("kind", string(event.kind)), ("subject", string(event.subject)),
            ("fields", "[" + fields.joined(separator: ",") + "]"), ("cause", String(event.cause)),
        ])
    }

    func value(_ value: FieldValue) -> String {
        switch value {
        case .int(let v): String(v)
        case .bool(let b): b ? "true" : "false"
        case .symbol(let s): string(s)
        }
    }

    func line(for decision: Decision, index: Int) -> String {
        JSONText.object([
            ("type", JSONText.quoted("decision")), ("index", String(index)),
            ("kind", JSONText.quoted(decision.kind.name)), ("chosen", String(decision.chosen)),
            ("count", String(decision.count)), ("fallback", String(decision.fallback)),
            ("lane", string(decision.lane)), ("label", string(decision.label)), ("ordinal", String(decision.ordinal)),
            ("afterEvent", String(decision.afterEvent)),
        ])
    }

    func line(for footer: TraceFooter) -> String {
        let names = ["pass", "fail", "step-limit", "time-limit", "pending", "crashed"]
        let code = Int(footer.verdict.code)
        return JSONText.object([
            ("type", JSONText.quoted("footer")), ("events", String(footer.eventCount)),
            ("decisions", String(footer.decisionCount)), ("steps", String(footer.steps)),
            ("endTime", String(footer.endTime)),
            ("verdict", JSONText.quoted(code < names.count ? names[code] : "unknown")), ("verdictCode", String(code)),
            ("oracle", JSONText.quoted(footer.verdict.oracle)), ("message", JSONText.quoted(footer.verdict.message)),
            ("digest", JSONText.quoted(footer.digest.description)),
        ])
    }
}
