import SimCore

/// The first field in which two events of the same run differ, in the order a reader meets them:
/// sequence number, virtual time, lane, kind, subject, cause, then the fields one by one. Symbols
/// compare by their text (the two sides number them independently). A divergence names it, so a
/// change of virtual time alone is reported where it happens, not only as a different final digest.
package enum EventDifference {
    /// `time: recorded 5000 ns, replayed 7000 ns`, or nil when the events have the same content.
    package static func first(
        recorded: Event, _ recordedText: (Symbol) -> String, replayed: Event, _ replayedText: (Symbol) -> String,
        labels: (recorded: String, replayed: String) = ("recorded", "replayed")
    ) -> String? {
        func differ(_ field: String, _ a: String, _ b: String) -> String {
            "\(field): \(labels.recorded) \(a), \(labels.replayed) \(b)"
        }
        if recorded.seq != replayed.seq { return differ("event number", "#\(recorded.seq)", "#\(replayed.seq)") }
        if recorded.time != replayed.time {
            return differ("virtual time", "\(recorded.time) ns", "\(replayed.time) ns")
        }
        let parts: [(String, Symbol, Symbol)] = [
            ("lane", recorded.lane, replayed.lane), ("kind", recorded.kind, replayed.kind),
            ("subject", recorded.subject, replayed.subject),
        ]
        for (name, a, b) in parts where recordedText(a) != replayedText(b) {
            return differ(name, "'\(recordedText(a))'", "'\(replayedText(b))'")
        }
        if recorded.cause != replayed.cause { return differ("cause", "#\(recorded.cause)", "#\(replayed.cause)") }
        for index in 0..<max(recorded.fields.count, replayed.fields.count) {
            guard index < recorded.fields.count, index < replayed.fields.count else {
                return differ("field count", "\(recorded.fields.count)", "\(replayed.fields.count)")
            }
            let a = recorded.fields[index]
            let b = replayed.fields[index]
            if recordedText(a.key) != replayedText(b.key) {
                return differ("field \(index + 1)'s name", "'\(recordedText(a.key))'", "'\(replayedText(b.key))'")
            }
            let left = text(a.value, recordedText)
            let right = text(b.value, replayedText)
            if left != right { return differ("field '\(recordedText(a.key))'", left, right) }
        }
        return nil
    }

    private static func text(_ value: FieldValue, _ symbolText: (Symbol) -> String) -> String {
        switch value {
        case .int(let n): "\(n)"
        case .bool(let flag): "\(flag)"
        case .symbol(let symbol): "'\(symbolText(symbol))'"
        }
    }
}
