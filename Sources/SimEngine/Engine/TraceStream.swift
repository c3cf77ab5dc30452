import SimCore
import SimTrace

/// One trace read once for a replay: the replay strategy pulls decisions from it and the comparing
/// sink pulls events, both from the same `TraceReader`.
///
/// Decisions and events are interleaved in the file in the order the run made them, so in a
/// faithful replay each side only ever reads past a few records of the other kind: the strategy
/// buffers the events it passes over on its way to the next decision, and the sink consumes them
/// from that buffer; the sink queues the decisions it passes over, and the strategy takes them
/// first. Both buffers are bounded (`maxBuffered`). When one would exceed its bound (a long stretch
/// without decisions, or a run that departs from the recording), the schedule is read from a second
/// reader of the same file instead (the two-pass way), positioned after the decisions already
/// handed out, and the events stay with the first.
package final class TraceStream: DecisionSource {
    /// The reader the events (and, until a fallback, the decisions) come from.
    package let reader: TraceReader
    /// The most events (or decisions) one side holds for the other.
    package let maxBuffered: Int
    /// Opens the file again, for the fallback.
    private let reopen: () throws(TraceError) -> TraceReader
    /// Events read by the strategy's side, not yet compared: a ring, oldest at `head`.
    @exclusivity(unchecked) private var events: [Event] = []
    @exclusivity(unchecked) private var head = 0
    @exclusivity(unchecked) private var buffered = 0
    /// Decisions read by the sink's side, not yet taken, from `decisionHead` on.
    @exclusivity(unchecked) private var decisions: [Decision] = []
    @exclusivity(unchecked) private var decisionHead = 0
    /// Decisions handed to the strategy so far.
    @exclusivity(unchecked) private var taken = 0
    /// After a fallback: the reader the decisions come from.
    @exclusivity(unchecked) private var scheduleReader: TraceReader?
    @exclusivity(unchecked) private var scratch = Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty)
    /// False once the sink stopped comparing (a divergence): events passed over are dropped.
    @exclusivity(unchecked) package var keepsEvents = true
    /// The first read error, from either reader.
    @exclusivity(unchecked) private(set) var readError: TraceError? {
        didSet { failed = readError != nil }
    }
    /// `readError != nil` as one flag the per-record paths test: comparing the optional error with
    /// `nil` copied and destroyed it through its value witnesses, ~180 instructions a call.
    @exclusivity(unchecked) private var failed = false
    /// True once the schedule has been read from a second reader.
    @exclusivity(unchecked) private(set) var fellBack = false

    package static let defaultMaxBuffered = 4096

    package init(
        reader: TraceReader, maxBuffered: Int = TraceStream.defaultMaxBuffered,
        reopen: @escaping () throws(TraceError) -> TraceReader
    ) {
        precondition(maxBuffered > 0, "the look-ahead bound must be positive")
        self.reader = reader
        self.maxBuffered = maxBuffered
        self.reopen = reopen
    }

    package func text(_ symbol: Symbol) -> String { (scheduleReader ?? reader).text(symbol) }

    // MARK: The strategy's side

    package func nextDecision() -> Decision? {
        if let scheduleReader { return nextDecision(skippingEventsOf: scheduleReader) }
        if decisionHead < decisions.count {
            let decision = decisions[decisionHead]
            decisionHead += 1
            if decisionHead == decisions.count {
                decisions.removeAll(keepingCapacity: true)
                decisionHead = 0
            }
            taken += 1
            return decision
        }
        guard !failed else { return nil }
        do {
            while true {
                let item: TraceReader.Item
                if keepsEvents {
                    if buffered >= maxBuffered {
                        fallBack()
                        return nextDecision()
                    }
                    item = try reader.nextEventOrDecision(into: &events[freeSlot()])
                    if case .event = item { buffered += 1 }
                } else {
                    item = try reader.nextEventOrDecision(into: &scratch)
                }
                switch item {
                case .event: continue
                case .decision(let decision):
                    taken += 1
                    return decision
                case .end: return nil
                }
            }
        } catch {
            readError = error
            return nil
        }
    }

    /// The ring index the next buffered event goes to (grown, up to the bound, when full).
    @inline(__always)
    private func freeSlot() -> Int {
        if buffered == events.count {
            events = Array(events[head...] + events[..<head])
            head = 0
            events.append(Event(seq: 0, time: 0, lane: .empty, kind: .empty, subject: .empty))
        }
        let slot = head + buffered
        return slot < events.count ? slot : slot - events.count
    }

    private func nextDecision(skippingEventsOf schedule: TraceReader) -> Decision? {
        guard !failed else { return nil }
        do {
            while let record = try schedule.nextSkippingEvents() {
                if case .decision(let decision) = record {
                    taken += 1
                    return decision
                }
            }
            return nil
        } catch {
            readError = error
            return nil
        }
    }

    /// Reads the schedule from a second reader from now on, past the decisions already taken.
    private func fallBack() {
        fellBack = true
        decisions.removeAll()
        decisionHead = 0
        do {
            let schedule = try reopen()
            var skipped = 0
            while skipped < taken, let record = try schedule.nextSkippingEvents() {
                if case .decision = record { skipped += 1 }
            }
            scheduleReader = schedule
        } catch {
            readError = error
        }
    }

    // MARK: The sink's side

    /// The next recorded event, into `event`; false at the end of the trace or on a read error.
    func nextEvent(into event: inout Event) -> Bool {
        if buffered > 0 {
            swap(&event, &events[head])
            head = head + 1 == events.count ? 0 : head + 1
            buffered -= 1
            return true
        }
        guard !failed else { return false }
        do {
            if try reader.nextAdjacentEvent(into: &event) { return true }
            while true {
                switch try reader.nextEventOrDecision(into: &event) {
                case .event: return true
                case .end: return false
                case .decision(let decision):
                    // After a fallback the schedule comes from the other reader.
                    guard scheduleReader == nil, !fellBack else { continue }
                    if decisions.count - decisionHead >= maxBuffered {
                        fallBack()
                    } else {
                        decisions.append(decision)
                    }
                }
            }
        } catch {
            readError = error
            return false
        }
    }

    /// Stops keeping events for the sink (it has stopped comparing).
    func dropEvents() {
        keepsEvents = false
        buffered = 0
        head = 0
    }

    /// Reads the rest of the trace (after the run), so that its footer, truncation and any damage
    /// further on are known, as a reader of the whole file would know them.
    func drain() {
        guard !failed else { return }
        do {
            while try reader.nextSkippingEvents() != nil {}
        } catch {
            readError = error
        }
    }
}
