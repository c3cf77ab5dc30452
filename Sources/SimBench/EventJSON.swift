import SimCore
import SimEngine

/// Renders events as JSON lines, the baseline the trace encoding's size is compared with:
/// `{"seq":3,"time":0,"lane":"main","kind":"view.update","subject":"form","cause":2,"fields":{…}}`.
struct EventJSON {
    let text: (Symbol) -> String

    /// Appends one event's line (with its newline) to `out`.
    func append(_ event: Event, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"seq":"#.utf8)
        out.append(contentsOf: String(event.seq).utf8)
        out.append(contentsOf: #","time":"#.utf8)
        out.append(contentsOf: String(event.time).utf8)
        field("lane", event.lane, &out)
        field("kind", event.kind, &out)
        field("subject", event.subject, &out)
        out.append(contentsOf: #","cause":"#.utf8)
        out.append(contentsOf: String(event.cause).utf8)
        out.append(contentsOf: #","fields":{"#.utf8)
        for (index, item) in event.fields.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            quoted(text(item.key), &out)
            out.append(UInt8(ascii: ":"))
            switch item.value {
            case .int(let value): out.append(contentsOf: String(value).utf8)
            case .symbol(let symbol): quoted(text(symbol), &out)
            case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
            }
        }
        out.append(contentsOf: "}}\n".utf8)
    }

    private func field(_ name: String, _ symbol: Symbol, _ out: inout [UInt8]) {
        out.append(contentsOf: #",""#.utf8)
        out.append(contentsOf: name.utf8)
        out.append(contentsOf: #"":"#.utf8)
        quoted(text(symbol), &out)
    }

    private func quoted(_ string: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
