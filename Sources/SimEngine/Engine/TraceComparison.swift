import SimCore
import SimTrace

/// Compares the events of two traces of the same run (streamed, by content: symbols by their text),
/// and renders the first difference with a few events of context from each side.
package struct TraceComparison {
    package let expected: String
    package let actual: String

    package init(expected: String, actual: String) {
        self.expected = expected
        self.actual = actual
    }

    /// The first difference of two traces' events.
    package struct Difference {
        /// The event number where they differ.
        package var atEvent: UInt64
        /// The expected trace ended before this event (the actual one went on).
        package var expectedEnded: Bool
        /// The difference as printable lines, with context from both sides.
        package var lines: [String]
    }

    /// The first difference as printable lines, or nil when both traces hold the same events.
    package func firstDifference(expectedLabel: String = "first run", actualLabel: String = "second run")
        throws(SimEngineError) -> [String]?
    {
        try difference(expectedLabel: expectedLabel, actualLabel: actualLabel)?.lines
    }

    /// The first difference, or nil when both traces hold the same events.
    package func difference(expectedLabel: String = "first run", actualLabel: String = "second run")
        throws(SimEngineError) -> Difference?
    {
        do {
            let left = try TraceReader(path: expected)
            let right = try TraceReader(path: actual)
            var recentLeft: [String] = []
            var recentRight: [String] = []
            let leftText = EventText { left.text($0) }
            let rightText = EventText { right.text($0) }
            while true {
                let a = try Self.nextEvent(left)
                let b = try Self.nextEvent(right)
                if a == nil && b == nil { return nil }
                if let a { Self.remember(leftText.line(a), in: &recentLeft) }
                if let b { Self.remember(rightText.line(b), in: &recentRight) }
                let same: Bool
                if let a, let b {
                    same = Self.hash(a, left) == Self.hash(b, right)
                } else {
                    same = false
                }
                guard !same else { continue }
                let at = a?.seq ?? b?.seq ?? 0
                let reason: String
                if let a, let b {
                    reason =
                        EventDifference.first(
                            recorded: a, { left.text($0) }, replayed: b, { right.text($0) },
                            labels: (expectedLabel, actualLabel)
                        ).map { "events differ in \($0)" } ?? "events differ"
                } else {
                    reason = "the \(a == nil ? expectedLabel : actualLabel) ends before this event"
                }
                let lines =
                    ["first divergent event: #\(at): \(reason)", "  \(expectedLabel):"]
                    + recentLeft.map { "    " + $0 } + ["  \(actualLabel):"] + recentRight.map { "    " + $0 }
                return Difference(atEvent: at, expectedEnded: a == nil, lines: lines)
            }
        } catch {
            throw TraceInput.failure(error)
        }
    }

    private static func nextEvent(_ reader: TraceReader) throws(TraceError) -> Event? {
        while let record = try reader.next() {
            if case .event(let event) = record { return event }
        }
        return nil
    }

    private static func hash(_ event: Event, _ reader: TraceReader) -> UInt64 {
        var digest = Digest()
        digest.mix(event) { reader.contentHash($0) }
        return digest.value
    }

    private static func remember(_ line: String, in list: inout [String]) {
        if list.count > 4 { list.removeFirst() }
        list.append(line)
    }
}
