import SimCore
import SimTrace

/// Compares a live run's events, one by one, with a recorded trace streamed from disk (memory stays
/// bounded whatever the length). Remembers the first difference with a few events of context.
///
/// The recorded events come from a `TraceStream`, which the replay strategy reads its decisions
/// from too: one pass over the file.
package final class ComparingSink: EventSink {
    package struct Divergence {
        package var recorded: [String]
        package var live: [String]
        package var atEvent: UInt64
        package var reason: String
    }

    private let stream: TraceStream
    private let reader: TraceReader
    @exclusivity(unchecked) private var liveSymbols: [String] = [""]
    @exclusivity(unchecked) private var liveHashes: [UInt64] = [Digest.hash(text: "")]
    /// Per recorded symbol id, the live id found to have the same text hash (`UInt32.max`: none yet).
    /// Numbering is usually the same in both runs, so after the first look-up a symbol compares by
    /// one array read instead of two hash look-ups (one across the module boundary).
    @exclusivity(unchecked) private var liveForRecorded: [UInt32] = [0]
    private let redefinitions: UnsafeMutablePointer<Int>
    /// `reader.symbolRedefinitions` when `liveForRecorded` was last valid.
    @exclusivity(unchecked) private var redefinitionsSeen = 0
    /// The recorded event being compared (decoded in place, reused).
    @exclusivity(unchecked) private var recorded = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
    private let recentLive = RecentEvents(capacity: ComparingSink.context + 1)
    @exclusivity(unchecked) private(set) var divergence: Divergence?
    package var readError: TraceError? { stream.readError }
    @exclusivity(unchecked) private(set) var compared: UInt64 = 0
    /// The recording is truncated and every event it holds matched: the rest of the run has nothing
    /// to compare with, which is not a divergence.
    @exclusivity(unchecked) private(set) var reachedTruncation = false
    @exclusivity(unchecked) private var done = false
    package static let context = 4

    init(stream: TraceStream) {
        self.stream = stream
        reader = stream.reader
        redefinitions = stream.reader.symbolRedefinitions
    }

    package func define(_ symbol: Symbol, _ text: String) {
        while liveSymbols.count <= Int(symbol.raw) {
            liveSymbols.append("")
            liveHashes.append(0)
        }
        liveSymbols[Int(symbol.raw)] = text
        liveHashes[Int(symbol.raw)] = Digest.hash(text: text)
        // A live id given a new text: pairs found so far may no longer hold.
        liveForRecorded = [0]
    }

    package func record(_ decision: Decision) {}

    package func record(_ event: Event) {
        // One flag for "stopped comparing" (divergence, truncation reached, read error): testing the
        // optionals per event goes through their value witnesses.
        guard !done else { return }
        remember(event, in: recentLive)
        guard readNextRecorded() else {
            done = true
            stream.dropEvents()
            if readError == nil && reader.isTruncated {
                reachedTruncation = true
            } else if readError == nil {
                diverge(at: event.seq, "the recording ends before this event", liveNow: true, recordedNow: false)
            }
            return
        }
        if _slowPath(redefinitions.pointee != redefinitionsSeen) {
            redefinitionsSeen = redefinitions.pointee
            liveForRecorded = [0]
        }
        if matches(event, recorded) {
            compared += 1
        } else {
            diverge(at: event.seq, differingField(event), liveNow: true, recordedNow: true)
        }
    }

    /// Whether the live event has the recorded one's content: numbers equal, symbols by their
    /// text's hash (numbering may differ between the runs). The words a digest would mix, compared
    /// one by one instead of hashed on both sides.
    @inline(__always)
    private func matches(_ live: Event, _ recorded: Event) -> Bool {
        guard live.seq == recorded.seq, live.time == recorded.time, live.cause == recorded.cause,
            live.fields.count == recorded.fields.count, same(live.lane, recorded.lane),
            same(live.kind, recorded.kind), same(live.subject, recorded.subject)
        else { return false }
        for index in 0..<live.fields.count {
            let a = live.fields[index]
            let b = recorded.fields[index]
            guard same(a.key, b.key) else { return false }
            switch (a.value, b.value) {
            case (.int(let x), .int(let y)): if x != y { return false }
            case (.bool(let x), .bool(let y)): if x != y { return false }
            case (.symbol(let x), .symbol(let y)): if !same(x, y) { return false }
            default: return false
            }
        }
        return true
    }

    @inline(__always)
    private func same(_ live: Symbol, _ recorded: Symbol) -> Bool {
        let known = Int(recorded.raw)
        if known < liveForRecorded.count && liveForRecorded[known] == live.raw { return true }
        return sameByHash(live, recorded)
    }

    /// The first comparison of a pair: by text hash, remembered when equal.
    private func sameByHash(_ live: Symbol, _ recorded: Symbol) -> Bool {
        let index = Int(live.raw)
        guard index < liveHashes.count && liveHashes[index] == reader.contentHash(recorded) else { return false }
        let known = Int(recorded.raw)
        while liveForRecorded.count <= known { liveForRecorded.append(UInt32.max) }
        liveForRecorded[known] = live.raw
        return true
    }

    /// After the run: anything left in the recording is a divergence too.
    func finish() {
        guard !done else { return }
        done = true
        if readNextRecorded() {
            diverge(at: recorded.seq, "the recording continues after the run ended", liveNow: false, recordedNow: true)
        }
    }

    /// Decodes the next recorded event into `recorded`; false at the end or on a read error.
    private func readNextRecorded() -> Bool {
        stream.nextEvent(into: &recorded)
    }

    private func remember(_ event: Event, in list: RecentEvents) {
        list.add(event)
    }

    /// Renders the context of the first difference. The recorded side before it is not kept: those
    /// events matched the live ones word for word (symbols by their text), so they render the same
    /// from the live side. `liveNow`/`recordedNow`: the current event of that side is part of it.
    /// "events differ in <the first field that does>" (off the per-event path: once per replay).
    private func differingField(_ live: Event) -> String {
        let symbols = liveSymbols
        let field = EventDifference.first(
            recorded: recorded, { [reader] in reader.text($0) }, replayed: live,
            { Int($0.raw) < symbols.count ? symbols[Int($0.raw)] : "?" })
        return field.map { "events differ in \($0)" } ?? "events differ"
    }

    private func diverge(at seq: UInt64, _ reason: String, liveNow: Bool, recordedNow: Bool) {
        let live = EventText { [liveSymbols] in Int($0.raw) < liveSymbols.count ? liveSymbols[Int($0.raw)] : "?" }
        let recordedText = EventText { [reader] in reader.text($0) }
        let liveEvents = recentLive.ordered
        let matched = liveNow ? Array(liveEvents.dropLast()) : liveEvents
        var recordedLines = matched.suffix(recordedNow ? Self.context : Self.context + 1).map(live.line)
        if recordedNow { recordedLines.append(recordedText.line(recorded)) }
        divergence = Divergence(recorded: recordedLines, live: liveEvents.map(live.line), atEvent: seq, reason: reason)
        done = true
        stream.dropEvents()
    }
}

/// The last few events, in a ring of fixed storage (shifting an array per event showed up in replay
/// profiles; an `Array` ring still paid a uniqueness and a bound check per event).
package final class RecentEvents {
    private let items: UnsafeMutablePointer<Event>
    @exclusivity(unchecked) private var stored = 0
    @exclusivity(unchecked) private var next = 0
    package let capacity: Int

    package init(capacity: Int) {
        precondition(capacity > 0, "a ring needs room")
        self.capacity = capacity
        items = .allocate(capacity: capacity)
    }

    deinit {
        items.deinitialize(count: stored)
        items.deallocate()
    }

    @inline(__always)
    func add(_ event: Event) {
        if stored < capacity {
            (items + stored).initialize(to: event)
            stored += 1
        } else {
            items[next] = event
            next = next + 1 == capacity ? 0 : next + 1
        }
    }

    /// Oldest first.
    var ordered: [Event] {
        let all = Array(UnsafeBufferPointer(start: items, count: stored))
        return Array(all[next...] + all[..<next])
    }
}
