import SimCore

/// Renders events for people (the text timeline of `Timeline`, divergence reports): `12.5ms  main  txn.commit input  phase=input count=2`.
public struct EventText {
    /// The text of an interned symbol (the trace's symbol table).
    public let text: (Symbol) -> String

    /// A renderer that looks symbols up with `text`.
    public init(text: @escaping (Symbol) -> String) { self.text = text }

    /// The event's fields as `key=value` pairs separated by spaces, text quoted when it needs it.
    public func fields(_ event: Event) -> String {
        event.fields.map { field in
            let value: String
            switch field.value {
            case .int(let v): value = String(v)
            case .bool(let b): value = b ? "true" : "false"
            case .symbol(let s): value = quoteIfNeeded(text(s))
            }
            return "\(text(field.key))=\(value)"
        }.joined(separator: " ")
    }

    /// An `actor.call` event as a sentence, `actor.call: task.2 calls actor ProfileCache.load(id:)`
    /// (the task whose call an actor's drain job runs, the actor's type and the method when the trace
    /// has them), or nil for any other event.
    public func actorCall(_ event: Event) -> String? {
        guard text(event.kind) == "actor.call" else { return nil }
        func field(_ key: String) -> String? {
            event.fields.first { text($0.key) == key }.flatMap { field -> String? in
                if case .symbol(let symbol) = field.value { text(symbol) } else { nil }
            }
        }
        let actor = field("actor").map { actor in field("method").map { "\(actor).\($0)" } ?? actor }
        return "actor.call: \(text(event.subject)) calls actor \(actor ?? "(not shown by the runtime)")"
    }

    private func quoteIfNeeded(_ value: String) -> String {
        value.contains(" ") || value.isEmpty ? "\"\(value)\"" : value
    }

    /// One line: sequence, time, lane, kind, subject, fields, cause.
    public func line(_ event: Event) -> String {
        var parts = ["#\(event.seq)", Self.time(event.time), text(event.lane), text(event.kind)]
        let subject = text(event.subject)
        if !subject.isEmpty { parts.append(subject) }
        let fieldText = fields(event)
        if !fieldText.isEmpty { parts.append(fieldText) }
        if event.cause != 0 { parts.append("← #\(event.cause)") }
        return parts.joined(separator: " ")
    }

    /// Virtual time, compactly: `0`, `300ms`, `1.25s`, `850µs`, `12ns`.
    public static func time(_ nanoseconds: Int64) -> String {
        let magnitude = nanoseconds.magnitude
        func trimmed(_ value: Double, _ unit: String) -> String {
            var text = String(format: value, decimals: 3)
            while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) { text.removeLast() }
            return text + unit
        }
        switch magnitude {
        case 0: return "0"
        case ..<1_000: return "\(nanoseconds)ns"
        case ..<1_000_000: return trimmed(Double(nanoseconds) / 1e3, "µs")
        case ..<1_000_000_000: return trimmed(Double(nanoseconds) / 1e6, "ms")
        default: return trimmed(Double(nanoseconds) / 1e9, "s")
        }
    }
}

extension String {
    /// A fixed-point rendering without Foundation.
    package init(format value: Double, decimals: Int) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded()
        let whole = Int(rounded / scale)
        let fraction = Int(abs(rounded.truncatingRemainder(dividingBy: scale)))
        var fractionText = String(fraction)
        while fractionText.count < decimals { fractionText = "0" + fractionText }
        let sign = value < 0 && whole == 0 ? "-" : ""
        self = decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fractionText)"
    }
}

extension String {
    /// The string padded with spaces to `width` characters (unchanged when it is as long already).
    package func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
