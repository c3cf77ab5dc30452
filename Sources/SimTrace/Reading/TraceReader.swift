import SimCore

/// Reads a trace record by record, with memory bounded by one frame plus the symbol table.
///
/// The header is read and validated by `init`. `next()` returns records in order; symbol definitions
/// are absorbed (resolve them with `text(_:)`). Records of a frame are handed out only after the whole
/// frame decoded and its checksum matched, so a file cut at any byte yields exactly the records up to
/// its last checkpoint, then `nil` with `isTruncated == true`.
///
/// ```swift
/// let reader = try TraceReader(path: "t.simtrace")
/// while let record = try reader.next() { … }
/// if reader.isTruncated { print("cut short after \(reader.eventCount) events") }
/// ```
public final class TraceReader {
    /// The file path, or the name given for in-memory bytes (used in errors).
    public let name: String
    /// The validated header.
    public let header: TraceHeader
    /// True once `next()` returned `nil` without having seen a footer.
    @exclusivity(unchecked) public private(set) var isTruncated = false
    /// The footer, once read.
    @exclusivity(unchecked) public private(set) var footer: TraceFooter?
    /// Events handed out so far.
    @exclusivity(unchecked) public private(set) var eventCount: UInt64 = 0
    /// Decisions handed out so far.
    @exclusivity(unchecked) public private(set) var decisionCount: UInt64 = 0
    /// The running digest stored in the last checkpoint read (as written; `TraceFile` verifies it).
    @exclusivity(unchecked) public private(set) var checkpointDigest = Digest()
    /// How many symbol records gave an already defined id a new text (writers never do; readers
    /// that cache per-symbol facts drop them when this changes). Behind a `let` pointer so that the
    /// replay's per-event check reads one word from another module without a dynamic exclusivity
    /// check (a `var` read across the module boundary got `swift_beginAccess`).
    package let symbolRedefinitions: UnsafeMutablePointer<Int>
    /// Symbol texts by id; id 0 is the empty string.
    @exclusivity(unchecked) public private(set) var symbols: [String] = [""]

    let frames: FrameDecoder
    @exclusivity(unchecked) private var cursor: ByteCursor
    /// Decompressed offset of the current frame's first byte.
    @exclusivity(unchecked) private var frameStreamOffset: UInt64 = 0
    @exclusivity(unchecked) private var frameSize = 0
    @exclusivity(unchecked) private var endedFrame = true
    @exclusivity(unchecked) private var finished = false {
        didSet { stopped = finished || failure != nil }
    }
    @exclusivity(unchecked) private var failure: TraceError? {
        didSet { stopped = finished || failure != nil }
    }
    /// `finished || failure != nil`, as one flag the per-event paths test (reading the optional
    /// error goes through its value witness).
    @exclusivity(unchecked) private var stopped = false

    @exclusivity(unchecked) private var symbolHashes: [UInt64] = [Digest.hash(text: "")]
    /// `symbolHashes.count`, kept as a plain word: the per-event symbol checks compare against it
    /// without loading the array's buffer.
    @exclusivity(unchecked) private var symbolLimit: UInt64 = 1
    /// The last int value stored under each symbol as a field key (delta state), indexed by symbol id,
    /// `lastIntsCapacity` long. A manually managed buffer: an `Array` here paid a uniqueness check and
    /// two bound checks per int field.
    @exclusivity(unchecked) private var lastInts: UnsafeMutablePointer<Int64>
    @exclusivity(unchecked) private var lastIntsCapacity: Int
    @exclusivity(unchecked) private var symbolBytes = 0
    @exclusivity(unchecked) private var lastSeq: UInt64 = 0
    @exclusivity(unchecked) private var seqJump: UInt64 = 0
    @exclusivity(unchecked) private var previousTime: Int64 = 0
    @exclusivity(unchecked) private var previousLane = Symbol.empty
    @exclusivity(unchecked) private var previousKind = Symbol.empty
    @exclusivity(unchecked) private var previousSubject = Symbol.empty

    /// Opens a trace file and reads its header.
    public convenience init(path: String) throws(TraceError) {
        try self.init(frames: FrameDecoder(path: path))
    }

    /// Reads a trace held in memory; `name` appears in errors.
    public convenience init(bytes: [UInt8], name: String) throws(TraceError) {
        try self.init(frames: FrameDecoder(bytes: bytes, name: name))
    }

    private init(frames: FrameDecoder) throws(TraceError) {
        self.frames = frames
        name = frames.name
        try frames.checkMagic()
        switch try frames.nextFrame() {
        case .frame: break
        case .end, .truncated:
            throw TraceError(
                .truncatedHeader, file: frames.name, offset: frames.frameFileOffset,
                expected: "a complete zstd frame holding the trace header",
                detail: frames.fileOffset == 0 ? "file is empty" : "file ends inside it")
        }
        header = try Self.decodeHeader(frames)
        frameStreamOffset = UInt64(frames.frameCount)
        cursor = ByteCursor(frames.frame, count: 0)
        // Allocated last: nothing after them throws, so `deinit` always frees them.
        symbolRedefinitions = .allocate(capacity: 1)
        symbolRedefinitions.initialize(to: 0)
        lastIntsCapacity = 64
        lastInts = .allocate(capacity: 64)
        lastInts.initialize(repeating: 0, count: 64)
    }

    private static func decodeHeader(_ frames: FrameDecoder) throws(TraceError) -> TraceHeader {
        var cursor = ByteCursor(frames.frame, count: frames.frameCount)
        let magic = TraceHeader.magic
        guard frames.frameCount >= magic.count, (0..<magic.count).allSatisfy({ frames.frame[$0] == magic[$0] }) else {
            let head = (0..<min(frames.frameCount, magic.count)).map { frames.frame[$0] }
            let shown = String(decoding: head.map { (32..<127).contains($0) ? $0 : 0x3F }, as: UTF8.self)
            throw TraceError(
                .notATrace, file: frames.name, offset: 0, inDecompressedStream: true,
                expected: "the trace magic \"SIMTRACE\"", detail: "found \"\(shown)\"")
        }
        cursor.position = magic.count
        do {
            let version = try cursor.fixed32("the format version")
            guard version >= 1 && version <= TraceHeader.currentFormatVersion else {
                throw TraceError(
                    .unsupportedVersion, file: frames.name, offset: UInt64(magic.count), inDecompressedStream: true,
                    expected: "trace format version 1...\(TraceHeader.currentFormatVersion)",
                    detail: "format version \(version); a newer simrun may read it")
            }
            return try TraceHeader.decode(&cursor, version: version)
        } catch let failure as DecodeFailure {
            throw TraceError(
                failure.kind, file: frames.name, offset: UInt64(failure.position), inDecompressedStream: true,
                expected: failure.expected, detail: failure.detail)
        } catch let error as TraceError {
            throw error
        } catch {
            throw TraceError(.malformedRecord, file: frames.name, offset: 0, expected: "a trace header")
        }
    }

    deinit {
        lastInts.deallocate()
        symbolRedefinitions.deallocate()
    }

    /// Where the reader is in the decompressed stream (just past the last record handed out).
    public var decompressedOffset: UInt64 { frameStreamOffset + UInt64(cursor.position) }

    /// The text of a symbol (`?<id>` for an id never defined).
    public func text(_ symbol: Symbol) -> String {
        Int(symbol.raw) < symbols.count ? symbols[Int(symbol.raw)] : "?\(symbol.raw)"
    }

    /// The content hash of a symbol's text, as digests use it.
    public func contentHash(_ symbol: Symbol) -> UInt64 {
        Int(symbol.raw) < symbolHashes.count ? symbolHashes[Int(symbol.raw)] : Digest.hash(text: "")
    }

    /// The next record, or `nil` at the end (see `isTruncated`). After an error, throws it again.
    public func next() throws(TraceError) -> TraceRecord? {
        if let failure { throw failure }
        if finished { return nil }
        do {
            return try readRecord()
        } catch let error as DecodeFailure {
            let failure = TraceError(
                error.kind, file: name, offset: frameStreamOffset + UInt64(error.position), inDecompressedStream: true,
                expected: error.expected, detail: error.detail)
            self.failure = failure
            throw failure
        } catch let error as TraceError {
            failure = error
            throw error
        } catch {
            let failure = TraceError(.malformedRecord, file: name, offset: frameStreamOffset, expected: "a record")
            self.failure = failure
            throw failure
        }
    }

    /// Reads on to the next event and decodes it into `event`, without wrapping it in a
    /// `TraceRecord` (the fast path for readers that only want events). Decisions, symbols and
    /// checkpoints on the way are read and checked as `next()` does. False at the end of the trace
    /// (see `isTruncated` and `footer`); after an error, throws it again.
    ///
    /// ```swift
    /// var event = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
    /// while try reader.nextEvent(into: &event) { … }
    /// ```
    public func nextEvent(into event: inout Event) throws(TraceError) -> Bool {
        while true {
            // The common case inline: an event record inside the current frame.
            if _fastPath(!stopped), cursor.position < cursor.end {
                let tag = cursor.base[cursor.position]
                if tag < RecordTag.eventLimit {
                    cursor.position += 1
                    do {
                        try decodeEvent(tag, into: &event)
                    } catch {
                        throw remember(error)
                    }
                    return true
                }
                // A decision inside the frame: decoded and checked as `readRecord` would, but
                // without the `TraceRecord` and `Item` enums around it (a third of decode's
                // instructions went to that dispatch; a decode reads ~1 decision per 3 events).
                if tag < RecordTag.decisionLimit {
                    cursor.position += 1
                    if cursor.end &- cursor.position >= Self.longestRecord, decodeDecisionInFrame(tag) != nil { continue }
                    do {
                        _ = try decodeDecisionChecked(tag)
                    } catch {
                        throw remember(error)
                    }
                    continue
                }
            }
            switch try nextEventOrDecision(into: &event) {
            case .event: return true
            case .decision: continue
            case .end: return false
            }
        }
    }

    /// Decodes the next record into `event` when it is an event inside the frame already decoded,
    /// and returns true; false (having read nothing) otherwise, or when the reader has stopped: the
    /// caller then reads on with `nextEventOrDecision(into:)`. The replay's per-event fast path
    /// (no `Item` returned, no frame or record dispatch).
    @inline(__always)
    public func nextAdjacentEvent(into event: inout Event) throws(TraceError) -> Bool {
        guard _fastPath(!stopped), cursor.position < cursor.end else { return false }
        let tag = cursor.base[cursor.position]
        guard tag < RecordTag.eventLimit else { return false }
        cursor.position += 1
        do {
            try decodeEvent(tag, into: &event)
        } catch {
            throw remember(error)
        }
        return true
    }

    /// What `nextEventOrDecision(into:)` read.
    public enum Item: Sendable, Equatable {
        /// An event, decoded into the caller's storage.
        case event
        /// A decision, as recorded.
        case decision(Decision)
        /// The end of the trace (see `isTruncated` and `footer`).
        case end
    }

    /// Reads on to the next event or decision, in recorded order: an event is decoded into `event`
    /// (as `nextEvent(into:)` does), a decision returned. Symbols, checkpoints and the footer on the
    /// way are read and checked. For a replay that follows the schedule and compares the events in
    /// one pass over the file; after an error, throws it again.
    public func nextEventOrDecision(into event: inout Event) throws(TraceError) -> Item {
        if _slowPath(stopped) {
            if let failure { throw failure }
            return .end
        }
        do {
            while true {
                if cursor.position < cursor.end {
                    let tag = cursor.base[cursor.position]
                    if tag < RecordTag.eventLimit {
                        cursor.position += 1
                        try decodeEvent(tag, into: &event)
                        return .event
                    }
                }
                guard let record = try readRecord() else { return .end }
                switch record {
                case .event(let decoded):
                    event = decoded
                    return .event
                case .decision(let decision): return .decision(decision)
                case .checkpoint, .footer: continue
                }
            }
        } catch {
            throw remember(error)
        }
    }

    /// The next record that is not an event: decisions, checkpoints and the footer, in order. Events
    /// on the way are decoded and checked but not handed out (for readers that want the schedule).
    public func nextSkippingEvents() throws(TraceError) -> TraceRecord? {
        if _slowPath(stopped) {
            if let failure { throw failure }
            return nil
        }
        var scratch = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
        do {
            while true {
                if cursor.position < cursor.end {
                    let tag = cursor.base[cursor.position]
                    if tag < RecordTag.eventLimit {
                        cursor.position += 1
                        try decodeEvent(tag, into: &scratch)
                        continue
                    }
                }
                guard let record = try readRecord() else { return nil }
                if case .event = record { continue }
                return record
            }
        } catch {
            throw remember(error)
        }
    }

    /// Turns a decoding error into the reader's `TraceError` (with the stream offset) and keeps it.
    private func remember(_ error: any Error) -> TraceError {
        let failure: TraceError
        switch error {
        case let error as DecodeFailure:
            failure = TraceError(
                error.kind, file: name, offset: frameStreamOffset + UInt64(error.position), inDecompressedStream: true,
                expected: error.expected, detail: error.detail)
        case let error as TraceError:
            failure = error
        default:
            failure = TraceError(.malformedRecord, file: name, offset: frameStreamOffset, expected: "a record")
        }
        self.failure = failure
        return failure
    }

    private func readRecord() throws -> TraceRecord? {
        while true {
            if cursor.isAtEnd {
                guard try advanceFrame() else { return nil }
            }
            let tagAt = cursor.position
            let tag = try cursor.byte("a record tag")
            if tag < RecordTag.eventLimit { return .event(try decodeEvent(tag)) }
            if tag < RecordTag.decisionLimit { return .decision(try decodeDecision(tag)) }
            switch tag {
            case RecordTag.symbol:
                try decodeSymbol()
            case RecordTag.seqJump:
                // Sequence numbers only go forward: a jump back would give two events one number.
                let jump = try cursor.signed("a sequence jump")
                guard jump >= 0 else {
                    throw DecodeFailure(
                        position: tagAt, expected: "a sequence jump forward", detail: "a jump of \(jump)")
                }
                seqJump = UInt64(jump)
            case RecordTag.checkpoint:
                return try decodeCheckpoint(at: tagAt)
            case RecordTag.footer:
                let footer = try TraceFooter.decode(&cursor)
                try expectFrameEnd(after: "the footer")
                guard footer.eventCount == eventCount && footer.decisionCount == decisionCount else {
                    throw DecodeFailure(
                        position: tagAt,
                        expected: "a footer counting \(eventCount) events and \(decisionCount) decisions",
                        detail: "footer counts \(footer.eventCount) events and \(footer.decisionCount) decisions")
                }
                self.footer = footer
                return .footer(footer)
            default:
                throw DecodeFailure(
                    position: tagAt, expected: "a record tag", detail: "unknown tag 0x\(String(tag, radix: 16))")
            }
        }
    }

    /// Moves to the next frame; false at the end of the trace.
    private func advanceFrame() throws -> Bool {
        if !endedFrame {
            throw DecodeFailure(
                position: frameSize, expected: "a checkpoint at the end of the frame", detail: "frame ends mid-run")
        }
        frameStreamOffset += UInt64(frameSize)
        frameSize = 0
        cursor = ByteCursor(frames.frame, count: 0)
        let outcome = try frames.nextFrame()
        if footer != nil {
            guard outcome == .end else {
                throw TraceError(
                    .malformedRecord, file: name, offset: frames.frameFileOffset,
                    expected: "the end of the file after the footer", detail: "more data follows")
            }
        }
        guard outcome == .frame else {
            finished = true
            isTruncated = footer == nil
            return false
        }
        frameSize = frames.frameCount
        cursor = ByteCursor(frames.frame, count: frameSize)
        endedFrame = false
        return true
    }

    private func expectFrameEnd(after what: String) throws(DecodeFailure) {
        guard cursor.isAtEnd else {
            throw DecodeFailure(
                position: cursor.position, expected: "the end of the frame after \(what)",
                detail: "\(cursor.remaining) more bytes")
        }
        endedFrame = true
    }

    private func decodeCheckpoint(at tagAt: Int) throws(DecodeFailure) -> TraceRecord {
        let events = try cursor.varint("the checkpoint's event count")
        let decisions = try cursor.varint("the checkpoint's decision count")
        let digest = try cursor.fixed64("the checkpoint's digest")
        try expectFrameEnd(after: "a checkpoint")
        guard events == eventCount && decisions == decisionCount else {
            throw DecodeFailure(
                position: tagAt, expected: "a checkpoint counting \(eventCount) events and \(decisionCount) decisions",
                detail: "checkpoint counts \(events) events and \(decisions) decisions")
        }
        checkpointDigest = Digest(value: digest)
        return .checkpoint(events: events, decisions: decisions)
    }

    // MARK: Records

    private func decodeEvent(_ tag: UInt8) throws(DecodeFailure) -> Event {
        var event = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
        try decodeEvent(tag, into: &event)
        return event
    }

    /// A varint read without bound checks when it is one byte well inside the frame (most are);
    /// anything else goes through the checked reader, which throws with `what`.
    @inline(__always)
    private func quickVarint(_ what: @autoclosure () -> String) throws(DecodeFailure) -> UInt64 {
        if let byte = oneByteVarint() { return UInt64(byte) }
        return try cursor.varint(what())
    }

    /// The next varint when it is one byte inside the frame (consumed), else nil (nothing consumed).
    @inline(__always)
    private func oneByteVarint() -> UInt8? {
        let position = cursor.position
        guard position < cursor.end else { return nil }
        let byte = cursor.base[position]
        guard byte < 0x80 else { return nil }
        cursor.position = position + 1
        return byte
    }

    @inline(__always)
    private func quickSigned(_ what: @autoclosure () -> String) throws(DecodeFailure) -> Int64 {
        let raw = try quickVarint(what())
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    @inline(__always)
    private func quickSymbol(_ what: String, _ role: String) throws(DecodeFailure) -> Symbol {
        let at = cursor.position
        let raw = try quickVarint(what)
        guard raw < symbolLimit else {
            throw DecodeFailure(position: at, expected: "a defined symbol for \(role)", detail: "id \(raw)")
        }
        return Symbol(raw: UInt32(truncatingIfNeeded: raw))
    }

    /// The most bytes an event record can take after its tag (five varints of at most ten bytes, a
    /// field count, and four fields of a key and a value): with this many bytes left in the frame,
    /// `decodeEventInFrame` reads without bound checks. A decision takes fewer.
    private static let longestRecord = 5 * 10 + 10 + 4 * 20

    /// Decodes the event whose tag was just read into `event` (every stored property is written).
    @inline(__always)
    private func decodeEvent(_ tag: UInt8, into event: inout Event) throws(DecodeFailure) {
        if cursor.end &- cursor.position >= Self.longestRecord, decodeEventInFrame(tag, into: &event) { return }
        try decodeEventChecked(tag, into: &event)
    }

    /// A varint read without bound checks (the caller made sure ten bytes follow), nil when it does
    /// not fit in 64 bits, where `ByteCursor.varint` throws. One- and two-byte values inline.
    @inline(__always)
    private static func varint(_ base: UnsafePointer<UInt8>, _ position: inout Int) -> UInt64? {
        let first = base[position]
        if first < 0x80 {
            position &+= 1
            return UInt64(first)
        }
        let second = base[position &+ 1]
        if second < 0x80 {
            position &+= 2
            return UInt64(first & 0x7F) | UInt64(second) << 7
        }
        guard let (value, next) = longVarint(base, position) else { return nil }
        position = next
        return value
    }

    /// `varint` past two bytes: the same rule as `ByteCursor.varint` (at most ten bytes, the tenth
    /// at most 1), without bound checks. Returns the position after it rather than taking it
    /// `inout`, so that the callers' positions stay in registers.
    @inline(never)
    private static func longVarint(_ base: UnsafePointer<UInt8>, _ position: Int) -> (UInt64, Int)? {
        var at = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = base[at]
            at &+= 1
            if shift == 63 && byte > 1 { return nil }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return (result, at) }
            shift += 7
            if shift > 63 { return nil }
        }
    }

    @inline(__always)
    private static func zigzag(_ raw: UInt64) -> Int64 {
        Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// The event decode when at least `longestRecord` bytes follow the tag in the frame: the frame's
    /// bytes through a local position and the reader's state in locals, written back once at the
    /// end. False when the record is malformed (a varint past 64 bits, an undefined symbol, a bad
    /// field count: exactly the cases where `decodeEventChecked` throws), with the position and
    /// counts untouched; the int fields' delta state may then have moved, which does not matter:
    /// the caller decodes the record again with the checked path, which throws, and the reader
    /// stops for good.
    @inline(__always)
    private func decodeEventInFrame(_ tag: UInt8, into event: inout Event) -> Bool {
        let base = cursor.base
        var at = cursor.position
        let limit = symbolLimit
        // Each part goes straight to the event and the reader's previous-event state (fewer live
        // values than locals written back at the end; a failure leaves state that the checked
        // path, which then throws, does not read for its error).
        if tag & RecordTag.timeBit != 0 {
            guard let raw = Self.varint(base, &at) else { return false }
            previousTime = previousTime &+ Self.zigzag(raw)
        }
        if tag & RecordTag.laneBit != 0 {
            guard let raw = Self.varint(base, &at), raw < limit else { return false }
            previousLane = Symbol(raw: UInt32(truncatingIfNeeded: raw))
        }
        if tag & RecordTag.kindBit != 0 {
            guard let raw = Self.varint(base, &at), raw < limit else { return false }
            previousKind = Symbol(raw: UInt32(truncatingIfNeeded: raw))
        }
        if tag & RecordTag.subjectBit != 0 {
            guard let raw = Self.varint(base, &at), raw < limit else { return false }
            previousSubject = Symbol(raw: UInt32(truncatingIfNeeded: raw))
        }
        let seq = lastSeq &+ 1 &+ seqJump
        event.cause = 0
        if tag & RecordTag.causeBit != 0 {
            // A cause is an earlier event (1...seq - 1); the checked path says what else it is.
            guard let raw = Self.varint(base, &at), raw != 0, raw < seq else { return false }
            event.cause = seq &- raw
        }
        var fieldCount = Int((tag & RecordTag.fieldMask) >> RecordTag.fieldShift)
        if fieldCount == Int(RecordTag.explicitFieldCount) {
            guard let count = Self.varint(base, &at), count >= 3 && count <= UInt64(EventFields.capacity) else {
                return false
            }
            fieldCount = Int(count)
        }
        event.fields.removeAll()
        if fieldCount > 0 {
            let ints = lastInts
            for _ in 0..<fieldCount {
                guard let keyAndType = Self.varint(base, &at), keyAndType >> 2 < limit else { return false }
                let key = Symbol(raw: UInt32(truncatingIfNeeded: keyAndType >> 2))
                switch keyAndType & 3 {
                case FieldTag.int:
                    guard let raw = Self.varint(base, &at) else { return false }
                    let value = ints[Int(key.raw)] &+ Self.zigzag(raw)
                    ints[Int(key.raw)] = value
                    event.fields.append(EventField(key, .int(value)))
                case FieldTag.symbol:
                    guard let raw = Self.varint(base, &at), raw < limit else { return false }
                    event.fields.append(EventField(key, .symbol(Symbol(raw: UInt32(truncatingIfNeeded: raw)))))
                case FieldTag.boolFalse:
                    event.fields.append(EventField(key, .bool(false)))
                default:
                    event.fields.append(EventField(key, .bool(true)))
                }
            }
        }
        cursor.position = at
        seqJump = 0
        lastSeq = seq
        eventCount &+= 1
        event.seq = seq
        event.time = previousTime
        event.lane = previousLane
        event.kind = previousKind
        event.subject = previousSubject
        return true
    }

    /// `decodeEvent` with every read checked against the frame's end, throwing what is wrong.
    @inline(never)
    private func decodeEventChecked(_ tag: UInt8, into event: inout Event) throws(DecodeFailure) {
        let seq = lastSeq &+ 1 &+ seqJump
        seqJump = 0
        var time = previousTime
        if tag & RecordTag.timeBit != 0 { time = time &+ (try quickSigned("an event time delta")) }
        var lane = previousLane
        var kind = previousKind
        var subject = previousSubject
        if tag & RecordTag.laneBit != 0 { lane = try quickSymbol("an event lane", "a lane") }
        if tag & RecordTag.kindBit != 0 { kind = try quickSymbol("an event kind", "a kind") }
        if tag & RecordTag.subjectBit != 0 { subject = try quickSymbol("an event subject", "a subject") }
        var cause: UInt64 = 0
        if tag & RecordTag.causeBit != 0 {
            let at = cursor.position
            let distance = try quickVarint("an event cause")
            guard distance != 0 && distance < seq else {
                throw DecodeFailure(
                    position: at, expected: "a cause among events 1...\(seq - 1) (event \(seq)'s past)",
                    detail: "a cause \(distance) events back")
            }
            cause = seq &- distance
        }
        var fieldCount = Int((tag & RecordTag.fieldMask) >> RecordTag.fieldShift)
        if fieldCount == Int(RecordTag.explicitFieldCount) {
            let at = cursor.position
            let count = try cursor.varint("an event field count")
            guard count >= 3 && count <= UInt64(EventFields.capacity) else {
                throw DecodeFailure(
                    position: at, expected: "3...\(EventFields.capacity) event fields", detail: "\(count) fields")
            }
            fieldCount = Int(count)
        }
        event.fields.removeAll()
        for _ in 0..<fieldCount {
            let at = cursor.position
            let keyAndType = try quickVarint("a field key")
            guard keyAndType >> 2 < symbolLimit else {
                throw DecodeFailure(
                    position: at, expected: "a defined symbol for a field key", detail: "id \(keyAndType >> 2)")
            }
            let key = Symbol(raw: UInt32(truncatingIfNeeded: keyAndType >> 2))
            switch keyAndType & 3 {
            case FieldTag.int:
                let value = lastInts[Int(key.raw)] &+ (try quickSigned("an int field value"))
                lastInts[Int(key.raw)] = value
                event.fields.append(EventField(key, .int(value)))
            case FieldTag.symbol:
                event.fields.append(EventField(key, .symbol(try quickSymbol("a symbol field", "a value"))))
            case FieldTag.boolFalse:
                event.fields.append(EventField(key, .bool(false)))
            default:
                event.fields.append(EventField(key, .bool(true)))
            }
        }
        lastSeq = seq
        previousTime = time
        previousLane = lane
        previousKind = kind
        previousSubject = subject
        eventCount += 1
        event.seq = seq
        event.time = time
        event.lane = lane
        event.kind = kind
        event.subject = subject
        event.cause = cause
    }

    /// A varint that must fit in 32 bits, one-byte values read without the checked path.
    @inline(__always)
    private func quickUInt32(_ what: @autoclosure () -> String) throws(DecodeFailure) -> UInt32 {
        if let byte = oneByteVarint() { return UInt32(byte) }
        return try cursor.uint32(what())
    }

    /// Decodes the decision whose tag was just read: without bound checks when at least
    /// `longestRecord` bytes follow in the frame, else (and for a malformed one, which then throws)
    /// through the checked path.
    @inline(__always)
    private func decodeDecision(_ tag: UInt8) throws(DecodeFailure) -> Decision {
        if cursor.end &- cursor.position >= Self.longestRecord, let decision = decodeDecisionInFrame(tag) {
            return decision
        }
        return try decodeDecisionChecked(tag)
    }

    /// A varint that fits in 32 bits, read without bound checks; nil where `ByteCursor.uint32` throws.
    @inline(__always)
    private static func uint32(_ base: UnsafePointer<UInt8>, _ position: inout Int) -> UInt32? {
        guard let raw = varint(base, &position) else { return nil }
        return UInt32(exactly: raw)
    }

    /// The decision decode when at least `longestRecord` bytes follow the tag (see
    /// `decodeEventInFrame`); nil, with nothing consumed or counted, where `decodeDecisionChecked`
    /// throws.
    @inline(__always)
    private func decodeDecisionInFrame(_ tag: UInt8) -> Decision? {
        let base = cursor.base
        var at = cursor.position
        let limit = symbolLimit
        guard let chosen = Self.uint32(base, &at), let count = Self.uint32(base, &at), chosen < count else {
            return nil
        }
        var fallback = chosen
        if tag & RecordTag.decisionFallbackBit != 0 {
            guard let value = Self.uint32(base, &at), value < count else { return nil }
            fallback = value
        }
        var lane = Symbol.empty
        if tag & RecordTag.decisionLaneBit != 0 {
            guard let raw = Self.varint(base, &at), raw < limit else { return nil }
            lane = Symbol(raw: UInt32(truncatingIfNeeded: raw))
        }
        var label = Symbol.empty
        if tag & RecordTag.decisionLabelBit != 0 {
            guard let raw = Self.varint(base, &at), raw < limit else { return nil }
            label = Symbol(raw: UInt32(truncatingIfNeeded: raw))
        }
        var ordinal: UInt32 = 0
        if tag & RecordTag.decisionOrdinalBit != 0 {
            guard let value = Self.uint32(base, &at) else { return nil }
            ordinal = value
        }
        // After an event already read (0 when none): never a later one, never before the first.
        guard let distance = Self.varint(base, &at), Self.zigzag(distance) >= 0,
            UInt64(bitPattern: Self.zigzag(distance)) <= lastSeq
        else { return nil }
        cursor.position = at
        decisionCount &+= 1
        return Decision(
            kind: DecisionKind(rawValue: (tag & RecordTag.decisionKindMask) + 1) ?? .pick, chosen: chosen,
            count: count, fallback: fallback, lane: lane, label: label, ordinal: ordinal,
            afterEvent: lastSeq &- UInt64(bitPattern: Self.zigzag(distance)))
    }

    /// `decodeDecision` with every read checked against the frame's end, throwing what is wrong.
    @inline(never)
    private func decodeDecisionChecked(_ tag: UInt8) throws(DecodeFailure) -> Decision {
        let kind = DecisionKind(rawValue: (tag & RecordTag.decisionKindMask) + 1) ?? .pick
        let at = cursor.position
        let chosen = try quickUInt32("a decision's choice")
        let count = try quickUInt32("a decision's option count")
        var fallback = chosen
        if tag & RecordTag.decisionFallbackBit != 0 { fallback = try quickUInt32("a decision's fallback") }
        // Well-formed is not enough: a choice (or fifo's) outside the options offered is no decision.
        guard chosen < count && fallback < count else {
            throw DecodeFailure(
                position: at, expected: "a choice and a fallback among the decision's \(count) options",
                detail: "choice \(chosen), fallback \(fallback)")
        }
        var lane = Symbol.empty
        var label = Symbol.empty
        if tag & RecordTag.decisionLaneBit != 0 { lane = try quickSymbol("a decision's lane", "a lane") }
        if tag & RecordTag.decisionLabelBit != 0 { label = try quickSymbol("a decision's label", "a label") }
        var ordinal: UInt32 = 0
        if tag & RecordTag.decisionOrdinalBit != 0 { ordinal = try quickUInt32("a decision's ordinal") }
        let distanceAt = cursor.position
        let distance = try quickSigned("a decision's event distance")
        guard distance >= 0 && UInt64(distance) <= lastSeq else {
            throw DecodeFailure(
                position: distanceAt, expected: "a decision after one of events 0...\(lastSeq) (those read)",
                detail: "a distance of \(distance) events from event \(lastSeq)")
        }
        decisionCount += 1
        return Decision(
            kind: kind, chosen: chosen, count: count, fallback: fallback, lane: lane, label: label, ordinal: ordinal,
            afterEvent: lastSeq &- UInt64(bitPattern: distance))
    }

    /// Doubles `lastInts` (new ids start at 0, as the writer's do).
    private func growLastInts() {
        let capacity = lastIntsCapacity * 2
        let grown = UnsafeMutablePointer<Int64>.allocate(capacity: capacity)
        grown.moveInitialize(from: lastInts, count: lastIntsCapacity)
        (grown + lastIntsCapacity).initialize(repeating: 0, count: capacity - lastIntsCapacity)
        lastInts.deallocate()
        lastInts = grown
        lastIntsCapacity = capacity
    }

    private func decodeSymbol() throws(DecodeFailure) {
        let at = cursor.position
        let id = try cursor.varint("a symbol id")
        guard id <= UInt64(symbols.count) else {
            throw DecodeFailure(
                position: at, expected: "symbol id \(symbols.count) or lower", detail: "id \(id) skips ahead")
        }
        guard id < UInt64(TraceLimits.maxSymbols) else {
            throw DecodeFailure(
                position: at, expected: "fewer than \(TraceLimits.maxSymbols) symbols", detail: "id \(id)",
                kind: .limitExceeded)
        }
        let text = try cursor.string("a symbol's text")
        symbolBytes += text.utf8.count
        guard symbolBytes <= TraceLimits.maxSymbolBytes else {
            throw DecodeFailure(
                position: at, expected: "at most \(TraceLimits.maxSymbolBytes) bytes of symbol text",
                detail: "more defined", kind: .limitExceeded)
        }
        let hash = Digest.hash(text: text)
        if id == UInt64(symbols.count) {
            symbols.append(text)
            symbolHashes.append(hash)
            symbolLimit = UInt64(symbolHashes.count)
            if symbolHashes.count > lastIntsCapacity { growLastInts() }
        } else {
            symbols[Int(id)] = text
            symbolHashes[Int(id)] = hash
            symbolRedefinitions.pointee += 1
        }
    }
}
