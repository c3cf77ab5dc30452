import SimCore

/// Writes a trace as Chrome Trace Event Format JSON, which ui.perfetto.dev and chrome://tracing open.
///
/// Lanes are threads (`thread_name` metadata, in order of first use); each job is a complete slice
/// (`"X"`) named after its label, with the events it recorded as one-microsecond child slices; a
/// causal edge from another job is a flow arrow (`"s"`/`"f"`, both ends always written); decisions
/// and the oracle failure are instant events (`"i"`); scenario, variant, seed and strategy are the
/// process name and `otherData`.
///
/// Virtual time does not advance inside a job, so slices get a synthetic timestamp: every record
/// moves a clock forward by 1 µs, and a virtual-time jump moves it to at least that time in µs. It
/// is monotonic for the whole file (so per lane); the real virtual time is in each slice's `args`.
///
/// Memory is bounded: a job's child lines are held until the job ends (split into continued slices
/// past `maxBufferedLines`), and flows find their cause in a window of the last `causeWindow` events
/// (older causes are counted in `otherData.flowsOmitted`, not drawn).
public struct PerfettoExporter {
    /// The trace being exported, read once from its current position.
    public let reader: TraceReader
    /// Child lines a job holds before its slice is closed and continued.
    public var maxBufferedLines = 4_096
    /// Recent events remembered for drawing flows.
    public var causeWindow = 1 << 16

    /// Exports the trace `reader` is positioned at the start of.
    public init(reader: TraceReader) { self.reader = reader }

    /// Streams the whole JSON document to `sink`.
    public func write(to sink: any ExportSink) throws(TraceError) {
        let state = PerfettoState(reader: reader, sink: sink, maxBuffered: maxBufferedLines, window: causeWindow)
        try state.begin()
        while let record = try reader.next() {
            switch record {
            case .event(let event): try state.event(event)
            case .decision(let decision): try state.decision(decision)
            case .footer, .checkpoint: break
            }
        }
        try state.end()
    }
}

/// The exporter's running state: the synthetic clock, lanes seen, the open job, recent events.
final class PerfettoState {
    struct OpenJob {
        var tid: Int
        var name: String
        var start: Int64
        var pick: EventID
        var args: String
        var part = 1
    }

    struct Seen {
        var seq: EventID = 0
        var tid = 0
        var ts: Int64 = 0
    }

    let reader: TraceReader
    let sink: any ExportSink
    let maxBuffered: Int
    var recent: [Seen]
    var tids: [Symbol: Int] = [:]
    var clock: Int64 = -1
    var job: OpenJob?
    var children: [String] = []
    var pending: String?
    var decisions = 0
    var flows = 0
    var flowsOmitted = 0
    let pickKind: String = "sched.pick"
    let eventText: EventText

    init(reader: TraceReader, sink: any ExportSink, maxBuffered: Int, window: Int) {
        self.reader = reader
        eventText = EventText { [reader] in reader.text($0) }
        self.sink = sink
        self.maxBuffered = max(1, maxBuffered)
        recent = Array(repeating: Seen(), count: max(1, window))
    }

    // MARK: Output

    /// Writes one array element; the comma goes on the previous one, so the array closes cleanly.
    func element(_ text: String) throws(TraceError) {
        if let pending { try sink.line(pending + ",") }
        pending = text
    }

    func begin() throws(TraceError) {
        try sink.line("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[")
        let header = reader.header
        let title = "\(header.scenario)/\(header.variant) seed \(header.seed)"
        try element(metadata("process_name", tid: 0, ["name": JSONText.quoted(title)]))
        try element(
            metadata(
                "process_labels", tid: 0,
                ["labels": JSONText.quoted("strategy \(header.strategy), simrun \(header.toolVersion)")]))
    }

    func end() throws(TraceError) {
        try closeJob()
        if let pending { try sink.line(pending) }
        pending = nil
        let header = reader.header
        var other: [(String, String)] = [
            ("scenario", JSONText.quoted(header.scenario)), ("variant", JSONText.quoted(header.variant)),
            ("seed", JSONText.quoted(String(header.seed))), ("strategy", JSONText.quoted(header.strategy)),
            ("toolVersion", JSONText.quoted(header.toolVersion)), ("build", JSONText.quoted(header.build)),
            ("events", String(reader.eventCount)),
            ("decisions", String(reader.decisionCount)), ("flows", String(flows)),
            ("flowsOmitted", String(flowsOmitted)),
        ]
        if let footer = reader.footer {
            other.append(("verdict", JSONText.quoted(footer.verdict.isFailure ? "\(footer.verdict)" : "pass")))
            other.append(("digest", JSONText.quoted(footer.digest.description)))
        } else {
            other.append(("verdict", JSONText.quoted("none: the trace is truncated")))
        }
        try sink.line("],\"otherData\":" + JSONText.object(other) + "}")
    }

    func metadata(_ name: String, tid: Int, _ args: [String: String]) -> String {
        let spelled = args.keys.sorted().map { ($0, args[$0] ?? "null") }
        return JSONText.object([
            ("ph", "\"M\""), ("pid", "1"), ("tid", String(tid)), ("name", JSONText.quoted(name)),
            ("args", JSONText.object(spelled)),
        ])
    }

    // MARK: Clock and lanes

    /// The next synthetic timestamp (µs) for a record at virtual time `time` (ns).
    func tick(_ time: Int64) -> Int64 {
        clock = max(clock + 1, time / 1_000)
        return clock
    }

    func tid(_ lane: Symbol) throws(TraceError) -> Int {
        if let known = tids[lane] { return known }
        // Perfetto takes the thread whose tid equals the pid (1) for the process's main thread, so
        // lanes count from 2.
        let tid = tids.count + 2
        tids[lane] = tid
        let name = reader.text(lane)
        try element(metadata("thread_name", tid: tid, ["name": JSONText.quoted(name.isEmpty ? "setup" : name)]))
        try element(metadata("thread_sort_index", tid: tid, ["sort_index": String(tids.count)]))
        return tid
    }

    // MARK: Records

    func args(_ event: Event) -> String {
        var members: [(String, String)] = [
            ("time", JSONText.quoted(Self.time(event.time))), ("time_ns", String(event.time)),
            ("seq", String(event.seq)),
        ]
        if event.cause != 0 { members.append(("cause", String(event.cause))) }
        for field in event.fields {
            let value: String
            switch field.value {
            case .int(let v): value = String(v)
            case .bool(let b): value = b ? "true" : "false"
            case .symbol(let s): value = JSONText.quoted(reader.text(s))
            }
            members.append((reader.text(field.key), value))
        }
        return JSONText.object(members)
    }

    func event(_ event: Event) throws(TraceError) {
        let kind = reader.text(event.kind)
        let subject = reader.text(event.subject)
        if kind == pickKind {
            try closeJob()
            let tid = try tid(event.lane)
            let ts = tick(event.time)
            let ordinal = event.fields.first.flatMap { field -> Int64? in
                if case .int(let n) = field.value { return n } else { return nil }
            }
            let name = subject + (ordinal.map { "#\($0)" } ?? "")
            job = OpenJob(tid: tid, name: name, start: ts, pick: event.seq, args: args(event))
            remember(event.seq, tid: tid, ts: ts)
            try flow(from: event.cause, to: event.seq, tid: tid, ts: ts)
            return
        }
        if let open = job, tids[event.lane] == open.tid {
            let ts = tick(event.time)
            // An actor's job reads as the call it runs: `actor.call: task.1 calls actor ProfileCache.load(id:)`.
            let name = (kind == "actor.call" ? eventText.actorCall(event) : nil) ?? label(kind, subject)
            children.append(
                slice(
                    name: name, category: category(kind), tid: open.tid, ts: ts, dur: 1,
                    args: args(event)))
            remember(event.seq, tid: open.tid, ts: ts)
            if event.cause != open.pick { try flow(from: event.cause, to: event.seq, tid: open.tid, ts: ts) }
            if children.count >= maxBuffered { try continueJob() }
            return
        }
        // Between jobs: the kernel's own events (clock advances, the oracle failure).
        try closeJob()
        let tid = try tid(event.lane)
        let ts = tick(event.time)
        remember(event.seq, tid: tid, ts: ts)
        if kind == "oracle.fail" {
            try element(
                instant(name: "oracle.fail: " + subject, category: "oracle", tid: tid, ts: ts, args: args(event)))
        } else {
            // (An entering job's events after the jobs that went first ran beneath it come here too.)
            let name = (kind == "actor.call" ? eventText.actorCall(event) : nil) ?? label(kind, subject)
            try element(slice(name: name, category: category(kind), tid: tid, ts: ts, dur: 1, args: args(event)))
            try flow(from: event.cause, to: event.seq, tid: tid, ts: ts)
        }
    }

    func decision(_ decision: Decision) throws(TraceError) {
        decisions += 1
        let mark = decision.isDeviation ? " *" : ""
        var members: [(String, String)] = [
            ("kind", JSONText.quoted(decision.kind.name)), ("option", String(decision.chosen + 1)),
            ("of", String(decision.count)), ("fifo", String(decision.fallback + 1)),
            ("deviates", decision.isDeviation ? "true" : "false"),
        ]
        if decision.kind == .pick {
            // A pick is made between jobs: its instant goes on the lane of the job it takes.
            try closeJob()
            let job = "\(reader.text(decision.lane))/\(reader.text(decision.label))#\(decision.ordinal)"
            members.append(("job", JSONText.quoted(job)))
            let tid = try tid(decision.lane)
            let name = "decision \(decisions): pick \(reader.text(decision.label))#\(decision.ordinal)\(mark)"
            try element(
                instant(name: name, category: "decision", tid: tid, ts: tick(0), args: JSONText.object(members)))
            return
        }
        let name =
            "decision \(decisions): \(decision.kind.name) \(reader.text(decision.label)) = \(decision.chosen)\(mark)"
        if let open = job {
            children.append(
                instant(name: name, category: "decision", tid: open.tid, ts: tick(0), args: JSONText.object(members)))
            if children.count >= maxBuffered { try continueJob() }
        } else {
            let tid = try tid(.empty)
            try element(
                instant(name: name, category: "decision", tid: tid, ts: tick(0), args: JSONText.object(members)))
        }
    }

    // MARK: Jobs and flows

    /// Writes the open job's slice, then its children (so timestamps never go back within a lane).
    func closeJob() throws(TraceError) {
        guard let open = job else { return }
        let name = open.part == 1 ? open.name : "\(open.name) (continued \(open.part))"
        try element(
            slice(
                name: name, category: "job", tid: open.tid, ts: open.start, dur: clock + 1 - open.start, args: open.args
            ))
        for child in children { try element(child) }
        children.removeAll(keepingCapacity: true)
        job = nil
    }

    /// Closes a job whose events overflow the buffer and opens its continuation.
    func continueJob() throws(TraceError) {
        guard var open = job else { return }
        try closeJob()
        open.part += 1
        open.start = tick(0)
        job = open
    }

    func remember(_ seq: EventID, tid: Int, ts: Int64) {
        recent[Int(seq % UInt64(recent.count))] = Seen(seq: seq, tid: tid, ts: ts)
    }

    /// A flow arrow from the event `cause` to the event `effect`, when the cause is still remembered.
    func flow(from cause: EventID, to effect: EventID, tid: Int, ts: Int64) throws(TraceError) {
        guard cause != 0 else { return }
        let seen = recent[Int(cause % UInt64(recent.count))]
        guard seen.seq == cause else {
            flowsOmitted += 1
            return
        }
        flows += 1
        let id = String(effect)
        try element(
            JSONText.object([
                ("ph", "\"s\""), ("pid", "1"), ("tid", String(seen.tid)), ("ts", String(seen.ts)), ("id", id),
                ("name", "\"cause\""), ("cat", "\"cause\""),
            ]))
        try element(
            JSONText.object([
                ("ph", "\"f\""), ("bp", "\"e\""), ("pid", "1"), ("tid", String(tid)), ("ts", String(ts)), ("id", id),
                ("name", "\"cause\""), ("cat", "\"cause\""),
            ]))
    }

    func slice(name: String, category: String, tid: Int, ts: Int64, dur: Int64, args: String) -> String {
        JSONText.object([
            ("ph", "\"X\""), ("pid", "1"), ("tid", String(tid)), ("ts", String(ts)), ("dur", String(max(1, dur))),
            ("name", JSONText.quoted(name)), ("cat", JSONText.quoted(category)), ("args", args),
        ])
    }

    func instant(name: String, category: String, tid: Int, ts: Int64, args: String) -> String {
        JSONText.object([
            ("ph", "\"i\""), ("s", "\"t\""), ("pid", "1"), ("tid", String(tid)), ("ts", String(ts)),
            ("name", JSONText.quoted(name)), ("cat", JSONText.quoted(category)), ("args", args),
        ])
    }

    func label(_ kind: String, _ subject: String) -> String { subject.isEmpty ? kind : "\(kind) \(subject)" }

    func category(_ kind: String) -> String { String(kind.split(separator: ".").first ?? "event") }

    /// Virtual time for people: `0`, `300ms`, `1.5s` (as `show` prints it, without Foundation).
    static func time(_ ns: Int64) -> String {
        if ns == 0 { return "0" }
        if ns % 1_000_000_000 == 0 { return "\(ns / 1_000_000_000)s" }
        if ns % 1_000_000 == 0 { return "\(ns / 1_000_000)ms" }
        if ns % 1_000 == 0 { return "\(ns / 1_000)µs" }
        return "\(ns)ns"
    }
}
