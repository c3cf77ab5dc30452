import SimCore

/// A whole trace in memory, with its digest checked: for small traces (show, replay, shrink, tests).
///
/// Loading verifies each checkpoint's running digest and the footer's counts and digest against the
/// events themselves, so a trace that decodes but was altered is rejected as `malformedRecord`.
public struct TraceFile: Sendable {
    /// The file path or in-memory name.
    public var name: String
    /// The run the trace records.
    public var header: TraceHeader
    /// Every record in order (events, decisions, checkpoints, and the footer when present).
    public var records: [TraceRecord]
    /// The events, in order.
    public var events: [Event]
    /// The decisions, in order.
    public var decisions: [Decision]
    /// Symbol texts by id; id 0 is the empty string.
    public var symbols: [String]
    /// The footer; `nil` when the trace was cut short.
    public var footer: TraceFooter?
    /// True when the trace has no footer (cut short); `records` end at its last checkpoint.
    public var isTruncated: Bool
    /// The digest recomputed from the events.
    public var digest: Digest

    /// The decisions with the strings they name, ready to drive a replay.
    public var tape: Tape { Tape(decisions: decisions, symbols: symbols) }

    /// The text of a symbol (`?<id>` for an id never defined).
    public func text(_ symbol: Symbol) -> String {
        Int(symbol.raw) < symbols.count ? symbols[Int(symbol.raw)] : "?\(symbol.raw)"
    }

    /// Reads and verifies the trace at `path`.
    public static func load(path: String) throws(TraceError) -> TraceFile {
        try load(TraceReader(path: path))
    }

    /// Reads and verifies a trace held in memory.
    public static func load(bytes: [UInt8], name: String) throws(TraceError) -> TraceFile {
        try load(TraceReader(bytes: bytes, name: name))
    }

    private static func load(_ reader: TraceReader) throws(TraceError) -> TraceFile {
        var records: [TraceRecord] = []
        var events: [Event] = []
        var decisions: [Decision] = []
        var digest = Digest()
        while let record = try reader.next() {
            records.append(record)
            switch record {
            case .event(let event):
                events.append(event)
                digest.mix(event) { reader.contentHash($0) }
            case .decision(let decision):
                decisions.append(decision)
            case .checkpoint:
                try check(
                    digest, against: reader.checkpointDigest, what: "checkpoint", reader: reader, events: events.count)
            case .footer(let footer):
                try check(digest, against: footer.digest, what: "footer", reader: reader, events: events.count)
            }
        }
        return TraceFile(
            name: reader.name, header: reader.header, records: records, events: events, decisions: decisions,
            symbols: reader.symbols, footer: reader.footer, isTruncated: reader.isTruncated, digest: digest)
    }

    private static func check(
        _ computed: Digest, against stored: Digest, what: String, reader: TraceReader, events: Int
    ) throws(TraceError) {
        guard computed != stored else { return }
        throw TraceError(
            .malformedRecord, file: reader.name, offset: reader.decompressedOffset, inDecompressedStream: true,
            expected: "the \(what) digest to match the events (digest mismatch)",
            detail: "\(what) after \(events) events says \(stored), events give \(computed)")
    }
}
