import SimCore

/// Turns a run's symbols, events and decisions into trace frames and hands them to an output.
///
/// Records accumulate in one reused raw buffer; a checkpoint record ends the buffer, which becomes one
/// zstd frame. Per event it does a few varint writes and a digest update: no allocation, no I/O
/// except at frame ends. Errors while recording (I/O, limits) are kept and reported by `finish`,
/// because `EventSink` methods cannot throw; after one, the encoder records nothing more.
final class TraceEncoder {
    let file: String
    let eventsPerFrame: Int
    private let output: any TraceOutput
    private let compressor: FrameCompressor
    /// Room past `frameSoftBytes`: a frame ends as soon as a record takes it past that size, so every
    /// record starts with at least this much room and needs no check per byte.
    static let slackBytes = 4096
    /// The largest event record: a seq jump (tag + 10-byte varint), the tag, a time delta (10), lane,
    /// kind and subject (5 each), a cause distance (10), a field count (10), and per field a key (5)
    /// and a value (10).
    static let maxEventRecordBytes = 11 + 1 + 10 + 3 * 5 + 10 + 10 + EventFields.capacity * 15
    /// The largest decision record: the tag, chosen, count and fallback (5 each), lane, label and
    /// ordinal (5 each), and the event distance (10).
    static let maxDecisionRecordBytes = 1 + 3 * 5 + 3 * 5 + 10
    // Internal (not private) so that a debug test can take the slack away and see the check trap.
    let buffer = RecordBuffer(capacity: TraceLimits.frameSoftBytes + TraceEncoder.slackBytes)

    @exclusivity(unchecked) private(set) var eventCount: UInt64 = 0
    @exclusivity(unchecked) private(set) var decisionCount: UInt64 = 0
    /// The digest of the events recorded so far, as `Simulation` computes it.
    @exclusivity(unchecked) private(set) var digest = Digest()
    /// Compressed bytes handed to the output.
    @exclusivity(unchecked) private(set) var bytesWritten: UInt64 = 0
    /// Decompressed bytes framed so far.
    @exclusivity(unchecked) private(set) var rawBytesWritten: UInt64 = 0
    @exclusivity(unchecked) private(set) var failure: TraceError?
    @exclusivity(unchecked) private(set) var isFinished = false

    // Delta state: each event is encoded against the previous one.
    @exclusivity(unchecked) private var eventsInFrame = 0
    @exclusivity(unchecked) private var lastSeq: UInt64 = 0
    @exclusivity(unchecked) private var previousTime: Int64 = 0
    @exclusivity(unchecked) private var previousLane: UInt32 = 0
    @exclusivity(unchecked) private var previousKind: UInt32 = 0
    @exclusivity(unchecked) private var previousSubject: UInt32 = 0
    // Per symbol: its text hash (for the digest) and the last int value stored under it as a key.
    @exclusivity(unchecked) private var hashes: [UInt64] = [Digest.hash(text: "")]
    @exclusivity(unchecked) private var lastInts: [Int64] = [0]
    @exclusivity(unchecked) private var symbolBytes = 0

    init(
        output: any TraceOutput, file: String, header: TraceHeader, compressionLevel: Int32, eventsPerFrame: Int
    ) throws(TraceError) {
        self.output = output
        self.file = file
        self.eventsPerFrame = max(1, eventsPerFrame)
        compressor = try FrameCompressor(level: compressionLevel, file: file)
        header.encode(into: buffer)
        if buffer.count > TraceLimits.frameSoftBytes {
            throw TraceError(
                .limitExceeded, file: file, offset: 0, inDecompressedStream: true,
                expected: "a header under \(TraceLimits.frameSoftBytes) bytes", detail: "\(buffer.count) bytes")
        }
        // The header is a frame of its own so a reader can validate it before any record.
        try flushFrame()
    }

    private var symbolCount: UInt32 { UInt32(truncatingIfNeeded: hashes.count) }

    // MARK: Records

    func define(_ symbol: Symbol, _ text: String) {
        guard failure == nil, !isFinished else { return }
        if symbol.raw > symbolCount && !defineMissing(below: symbol.raw) { return }
        emitSymbol(symbol.raw, text)
        endFrameIfFull()
    }

    func record(_ event: Event) {
        guard failure == nil, !isFinished else { return }
        if max(event.lane.raw, event.kind.raw, event.subject.raw) >= symbolCount {
            guard defineMissing(below: max(event.lane.raw, event.kind.raw, event.subject.raw) + 1) else { return }
        }
        for field in event.fields {
            let top: UInt32
            if case .symbol(let s) = field.value { top = max(field.key.raw, s.raw) } else { top = field.key.raw }
            if top >= symbolCount { guard defineMissing(below: top + 1) else { return } }
        }
        let out = buffer
        // One compare per record, kept in release builds: writing past the buffer corrupts memory.
        precondition(
            out.room >= Self.maxEventRecordBytes,
            "TraceEncoder: \(out.room) bytes of room for an event record of up to \(Self.maxEventRecordBytes)")
        if event.seq != lastSeq &+ 1 {
            out.byte(RecordTag.seqJump)
            out.signed(Int64(bitPattern: event.seq &- (lastSeq &+ 1)))
        }
        let tagAt = out.count
        out.count += 1
        var tag: UInt8 = 0
        let delta = event.time &- previousTime
        if delta != 0 {
            tag |= RecordTag.timeBit
            out.signed(delta)
        }
        if event.lane.raw != previousLane {
            tag |= RecordTag.laneBit
            out.varint(UInt64(event.lane.raw))
        }
        if event.kind.raw != previousKind {
            tag |= RecordTag.kindBit
            out.varint(UInt64(event.kind.raw))
        }
        if event.subject.raw != previousSubject {
            tag |= RecordTag.subjectBit
            out.varint(UInt64(event.subject.raw))
        }
        if event.cause != 0 {
            tag |= RecordTag.causeBit
            out.varint(event.seq &- event.cause)
        }
        let fieldCount = event.fields.count
        if fieldCount < Int(RecordTag.explicitFieldCount) {
            tag |= UInt8(truncatingIfNeeded: fieldCount) << RecordTag.fieldShift
        } else {
            tag |= RecordTag.explicitFieldCount << RecordTag.fieldShift
            out.varint(UInt64(fieldCount))
        }
        for field in event.fields { encode(field) }
        out.base[tagAt] = tag

        lastSeq = event.seq
        previousTime = event.time
        previousLane = event.lane.raw
        previousKind = event.kind.raw
        previousSubject = event.subject.raw
        hashes.withUnsafeBufferPointer { table in digest.mix(event) { table[Int($0.raw)] } }
        eventCount += 1
        eventsInFrame += 1
        if eventsInFrame >= eventsPerFrame || out.count >= TraceLimits.frameSoftBytes { endFrame() }
    }

    @inline(__always)
    private func encode(_ field: EventField) {
        let key = UInt64(field.key.raw) &<< 2
        switch field.value {
        case .int(let value):
            buffer.varint(key | FieldTag.int)
            let index = Int(field.key.raw)
            // Deltas per key turn counters and repeated values into constant bytes zstd can match.
            buffer.signed(value &- lastInts[index])
            lastInts[index] = value
        case .symbol(let symbol):
            buffer.varint(key | FieldTag.symbol)
            buffer.varint(UInt64(symbol.raw))
        case .bool(let flag):
            buffer.varint(key | (flag ? FieldTag.boolTrue : FieldTag.boolFalse))
        }
    }

    func record(_ decision: Decision) {
        guard failure == nil, !isFinished else { return }
        if max(decision.lane.raw, decision.label.raw) >= symbolCount {
            guard defineMissing(below: max(decision.lane.raw, decision.label.raw) + 1) else { return }
        }
        let out = buffer
        precondition(
            out.room >= Self.maxDecisionRecordBytes,
            "TraceEncoder: \(out.room) bytes of room for a decision record of up to \(Self.maxDecisionRecordBytes)")
        var tag = RecordTag.decisionBase | ((decision.kind.rawValue &- 1) & RecordTag.decisionKindMask)
        if decision.lane != .empty { tag |= RecordTag.decisionLaneBit }
        if decision.label != .empty { tag |= RecordTag.decisionLabelBit }
        if decision.ordinal != 0 { tag |= RecordTag.decisionOrdinalBit }
        if decision.fallback != decision.chosen { tag |= RecordTag.decisionFallbackBit }
        out.byte(tag)
        out.varint(UInt64(decision.chosen))
        out.varint(UInt64(decision.count))
        if decision.fallback != decision.chosen { out.varint(UInt64(decision.fallback)) }
        if decision.lane != .empty { out.varint(UInt64(decision.lane.raw)) }
        if decision.label != .empty { out.varint(UInt64(decision.label.raw)) }
        if decision.ordinal != 0 { out.varint(UInt64(decision.ordinal)) }
        // Usually the decision follows the last event: distance 0, one byte.
        out.signed(Int64(bitPattern: lastSeq &- decision.afterEvent))
        decisionCount += 1
        if out.count >= TraceLimits.frameSoftBytes { endFrame() }
    }

    /// Ends the current frame with a checkpoint now (no-op when nothing was recorded since the last).
    func checkpoint() {
        guard failure == nil, !isFinished, buffer.count > 0 else { return }
        endFrame()
    }

    /// Appends the footer, writes the last frame, and stops recording.
    ///
    /// `verifying: false` skips the footer check; only tests use it, to make traces that lie.
    func finish(_ footer: TraceFooter, verifying: Bool = true) throws(TraceError) {
        if let failure { throw failure }
        guard !isFinished else {
            throw TraceError(
                .malformedRecord, file: file, offset: rawBytesWritten, inDecompressedStream: true,
                expected: "one finish per trace", detail: "the trace was already finished")
        }
        guard
            !verifying
                || (footer.eventCount == eventCount && footer.decisionCount == decisionCount
                    && footer.digest == digest)
        else {
            throw TraceError(
                .malformedRecord, file: file, offset: rawBytesWritten + UInt64(buffer.count),
                inDecompressedStream: true,
                expected:
                    "a footer matching the recorded run (\(eventCount) events, \(decisionCount) decisions, digest \(digest))",
                detail:
                    "footer says \(footer.eventCount) events, \(footer.decisionCount) decisions, digest \(footer.digest)"
            )
        }
        isFinished = true
        footer.encode(into: buffer)
        try flushFrame()
    }

    // MARK: Frames

    private func endFrameIfFull() {
        if buffer.count >= TraceLimits.frameSoftBytes { endFrame() }
    }

    private func endFrame() {
        buffer.reserve(32)
        buffer.byte(RecordTag.checkpoint)
        buffer.varint(eventCount)
        buffer.varint(decisionCount)
        buffer.fixed64(digest.value)
        do { try flushFrame() } catch { failure = error }
    }

    private func flushFrame() throws(TraceError) {
        let frame = try compressor.compress(buffer.bytes, file: file, offset: bytesWritten)
        try output.append(frame)
        bytesWritten += UInt64(frame.count)
        rawBytesWritten += UInt64(buffer.count)
        buffer.count = 0
        eventsInFrame = 0
    }

    // MARK: Symbols

    private func emitSymbol(_ id: UInt32, _ text: String) {
        guard Int(id) < TraceLimits.maxSymbols else {
            return fail(.limitExceeded, "symbol ids below \(TraceLimits.maxSymbols)", "id \(id)")
        }
        let length = text.utf8.count
        guard length <= TraceLimits.maxStringBytes else {
            return fail(.limitExceeded, "symbol text of at most \(TraceLimits.maxStringBytes) bytes", "\(length) bytes")
        }
        symbolBytes += length
        guard symbolBytes <= TraceLimits.maxSymbolBytes else {
            return fail(.limitExceeded, "at most \(TraceLimits.maxSymbolBytes) bytes of symbol text", "")
        }
        buffer.reserve(length + 16)
        buffer.byte(RecordTag.symbol)
        buffer.varint(UInt64(id))
        buffer.string(text)
        let hash = Digest.hash(text: text)
        if id == symbolCount {
            hashes.append(hash)
            lastInts.append(0)
        } else {
            hashes[Int(id)] = hash
        }
    }

    /// Defines every symbol id below `limit` that was never defined, as the empty string, so the
    /// trace never refers to an unknown id. Returns false when the id is out of bounds.
    private func defineMissing(below limit: UInt32) -> Bool {
        guard Int(limit) <= TraceLimits.maxSymbols else {
            fail(.limitExceeded, "symbol ids below \(TraceLimits.maxSymbols)", "id \(limit - 1)")
            return false
        }
        while symbolCount < limit && failure == nil {
            emitSymbol(symbolCount, "")
            endFrameIfFull()
        }
        return failure == nil
    }

    private func fail(_ kind: TraceError.Kind, _ expected: String, _ detail: String) {
        failure = TraceError(
            kind, file: file, offset: rawBytesWritten + UInt64(buffer.count), inDecompressedStream: true,
            expected: expected, detail: detail)
    }
}
