import SimCore
import SimTrace

/// Compares a live run's events, one by one, with a recorded trace streamed from disk (memory stays
/// bounded whatever the length). Remembers the first difference with a few events of context.
final class ComparingSink: EventSink {
    struct Divergence {
        var recorded: [String]
        var live: [String]
        var atEvent: UInt64
        var reason: String
    }

    private let reader: TraceReader
    @exclusivity(unchecked) private var liveSymbols: [String] = [""]
    @exclusivity(unchecked) private var liveHashes: [UInt64] = [Digest.hash(text: "")]
    @exclusivity(unchecked) private var recordedHashes: [UInt64] = []
    @exclusivity(unchecked) private var recentLive = RecentEvents(capacity: ComparingSink.context + 1)
    @exclusivity(unchecked) private var recentRecorded = RecentEvents(capacity: ComparingSink.context + 1)
    @exclusivity(unchecked) private(set) var divergence: Divergence?
    @exclusivity(unchecked) private(set) var readError: TraceError?
    @exclusivity(unchecked) private(set) var compared: UInt64 = 0
    /// The recording is truncated and every event it holds matched: the rest of the run has nothing
    /// to compare with, which is not a divergence.
    @exclusivity(unchecked) private(set) var reachedTruncation = false
    static let context = 4

    init(reader: TraceReader) { self.reader = reader }

    func define(_ symbol: Symbol, _ text: String) {
        while liveSymbols.count <= Int(symbol.raw) {
            liveSymbols.append("")
            liveHashes.append(0)
        }
        liveSymbols[Int(symbol.raw)] = text
        liveHashes[Int(symbol.raw)] = Digest.hash(text: text)
    }

    func record(_ decision: Decision) {}

    func record(_ event: Event) {
        guard divergence == nil, readError == nil, !reachedTruncation else { return }
        remember(event, in: &recentLive)
        guard let recorded = nextRecorded() else {
            if readError == nil && reader.isTruncated {
                reachedTruncation = true
            } else if readError == nil {
                diverge(at: event.seq, "the recording ends before this event")
            }
            return
        }
        remember(recorded, in: &recentRecorded)
        if liveHash(event) != recordedHash(recorded) {
            diverge(at: event.seq, "events differ")
        } else {
            compared += 1
        }
    }

    /// After the run: anything left in the recording is a divergence too.
    func finish() {
        guard divergence == nil, readError == nil, !reachedTruncation else { return }
        if let extra = nextRecorded() {
            remember(extra, in: &recentRecorded)
            diverge(at: extra.seq, "the recording continues after the run ended")
        }
    }

    private func nextRecorded() -> Event? {
        do {
            while let record = try reader.next() {
                if case .event(let event) = record { return event }
            }
        } catch {
            readError = error
        }
        return nil
    }

    private func remember(_ event: Event, in list: inout RecentEvents) {
        list.add(event)
    }

    private func liveHash(_ event: Event) -> UInt64 {
        var digest = Digest()
        digest.mix(event) { Int($0.raw) < liveHashes.count ? liveHashes[Int($0.raw)] : 0 }
        return digest.value
    }

    private func recordedHash(_ event: Event) -> UInt64 {
        var digest = Digest()
        digest.mix(event) { symbol in
            let index = Int(symbol.raw)
            while recordedHashes.count <= index {
                recordedHashes.append(Digest.hash(text: reader.text(Symbol(raw: UInt32(recordedHashes.count)))))
            }
            return recordedHashes[index]
        }
        return digest.value
    }

    private func diverge(at seq: UInt64, _ reason: String) {
        let live = EventText { [liveSymbols] in Int($0.raw) < liveSymbols.count ? liveSymbols[Int($0.raw)] : "?" }
        let recorded = EventText { [reader] in reader.text($0) }
        divergence = Divergence(
            recorded: recentRecorded.ordered.map(recorded.line), live: recentLive.ordered.map(live.line), atEvent: seq,
            reason: reason)
    }
}

/// The last few events, in a ring (shifting an array per event showed up in replay profiles).
struct RecentEvents {
    private var items: [Event] = []
    private var next = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    mutating func add(_ event: Event) {
        if items.count < capacity {
            items.append(event)
        } else {
            items[next] = event
            next = next + 1 == capacity ? 0 : next + 1
        }
    }

    /// Oldest first.
    var ordered: [Event] { Array(items[next...] + items[..<next]) }
}
