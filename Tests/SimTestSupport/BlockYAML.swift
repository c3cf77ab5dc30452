/// A parser for the block-style YAML subset our deployment recipes are written in, so a test can
/// check their structure without a YAML dependency (Yams would add libyaml's C sources to every
/// build for one test).
///
/// Supported: `---` documents, `key: value` maps, `- item` lists (indented under their key or at its
/// level), `[a, b]` flow lists of scalars, `|` literal block scalars, quoted and plain scalars, and
/// `#` comments. Anything else (anchors, aliases, flow maps, tags, `>` folding) is an error, never
/// guessed at, so a manifest that leaves the subset fails its test instead of being misread.
public enum BlockYAML: Equatable, CustomStringConvertible {
    /// A plain or quoted scalar, or a literal block.
    case scalar(String)
    /// A block or flow list.
    case list([BlockYAML])
    /// A map, its keys in file order.
    case map([(key: String, value: BlockYAML)])

    /// Text outside the subset, or malformed: the line and why.
    public struct ParseError: Error, CustomStringConvertible {
        /// The 1-based line.
        public var line: Int
        /// What is wrong there.
        public var reason: String
        /// `line N: reason`.
        public var description: String { "line \(line): \(reason)" }
    }

    /// Equal when they print alike.
    public static func == (a: BlockYAML, b: BlockYAML) -> Bool { a.description == b.description }

    /// The node in flow style (for messages and equality).
    public var description: String {
        switch self {
        case .scalar(let text): return "\"\(text)\""
        case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .map(let pairs): return "{" + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }

    /// The value under `key` of a map (nil when absent or not a map).
    public subscript(key: String) -> BlockYAML? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The item at `index` of a list.
    public subscript(index: Int) -> BlockYAML? {
        guard case .list(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// The value at a dotted path such as `spec.template.spec.containers.0.name`.
    public func at(_ path: String) -> BlockYAML? {
        var node: BlockYAML? = self
        for part in path.split(separator: ".") {
            node = Int(part).flatMap { node?[$0] } ?? node?[String(part)]
        }
        return node
    }

    /// The scalar's text, if a scalar.
    public var string: String? {
        guard case .scalar(let text) = self else { return nil }
        return text
    }

    /// The list's items (empty for anything else).
    public var items: [BlockYAML] {
        guard case .list(let items) = self else { return [] }
        return items
    }

    /// Every document of a multi-document text.
    public static func documents(_ text: String) throws -> [BlockYAML] {
        var documents: [BlockYAML] = []
        var current: [(number: Int, text: String)] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line == "---" {
                if !current.isEmpty { documents.append(try parse(current)) }
                current = []
            } else {
                current.append((offset + 1, String(line)))
            }
        }
        if current.contains(where: { !isBlank($0.text) }) { documents.append(try parse(current)) }
        return documents
    }

    private static func isBlank(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " }
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    private static func parse(_ lines: [(number: Int, text: String)]) throws -> BlockYAML {
        var parser = Parser(lines: lines)
        let node = try parser.node(indent: 0)
        parser.skipBlank()
        if parser.position < lines.count {
            throw ParseError(line: lines[parser.position].number, reason: "unexpected indentation")
        }
        return node
    }

    private struct Parser {
        var lines: [(number: Int, text: String)]
        var position = 0

        mutating func skipBlank() {
            while position < lines.count && BlockYAML.isBlank(lines[position].text) { position += 1 }
        }

        func indent(of line: String) -> Int { line.prefix { $0 == " " }.count }

        /// The node whose lines start at column `indent` or deeper.
        mutating func node(indent minimum: Int) throws -> BlockYAML {
            skipBlank()
            guard position < lines.count else { return .scalar("") }
            let line = lines[position].text
            let column = indent(of: line)
            guard column >= minimum else { return .scalar("") }
            let body = line.dropFirst(column)
            return body == "-" || body.hasPrefix("- ") ? try list(at: column) : try map(at: column)
        }

        mutating func list(at column: Int) throws -> BlockYAML {
            var items: [BlockYAML] = []
            while true {
                skipBlank()
                guard position < lines.count else { break }
                let (number, line) = lines[position]
                guard indent(of: line) == column else { break }
                let body = line.dropFirst(column)
                guard body == "-" || body.hasPrefix("- ") else { break }
                let rest = body.dropFirst(body == "-" ? 1 : 2)
                if rest.drop(while: { $0 == " " }).isEmpty {
                    position += 1
                    items.append(try node(indent: column + 1))
                } else if rest == "|" || rest == "|-" {
                    position += 1
                    items.append(.scalar(literalBlock(deeperThan: column, keepFinalNewline: rest == "|")))
                } else if isMapEntry(rest) {
                    // `- key: value` opens a map whose keys sit at the column after the dash.
                    lines[position].text = String(repeating: " ", count: column + 2) + rest
                    items.append(try map(at: column + 2))
                } else {
                    position += 1
                    items.append(try scalar(String(rest), line: number))
                }
            }
            return .list(items)
        }

        func isMapEntry(_ text: Substring) -> Bool {
            guard let first = text.first, first != "\"", first != "'", first != "[" else { return false }
            return text.contains(": ") || text.hasSuffix(":")
        }

        mutating func map(at column: Int) throws -> BlockYAML {
            var pairs: [(key: String, value: BlockYAML)] = []
            while true {
                skipBlank()
                guard position < lines.count else { break }
                let (number, line) = lines[position]
                guard indent(of: line) == column else {
                    if indent(of: line) > column { throw ParseError(line: number, reason: "unexpected indentation") }
                    break
                }
                let body = line.dropFirst(column)
                if body.hasPrefix("- ") { break }
                guard
                    let colon = body.firstRange(of: ": ")
                        ?? (body.hasSuffix(":") ? body.index(before: body.endIndex)..<body.endIndex : nil)
                else { throw ParseError(line: number, reason: "expected 'key: value'") }
                let key = String(body[..<colon.lowerBound])
                if pairs.contains(where: { $0.key == key }) {
                    throw ParseError(line: number, reason: "duplicate key \(key)")
                }
                let rest = body[colon.upperBound...].trimmingSpaces()
                position += 1
                if rest.isEmpty || rest.hasPrefix("#") {
                    skipBlank()
                    // A list may sit at the key's own column (`key:\n- a`).
                    if position < lines.count, indent(of: lines[position].text) == column,
                        lines[position].text.dropFirst(column).hasPrefix("- ")
                    {
                        pairs.append((key, try list(at: column)))
                    } else {
                        pairs.append((key, try node(indent: column + 1)))
                    }
                } else if rest == "|" || rest == "|-" {
                    pairs.append((key, .scalar(literalBlock(deeperThan: column, keepFinalNewline: rest == "|"))))
                } else {
                    pairs.append((key, try scalar(String(rest), line: number)))
                }
            }
            return .map(pairs)
        }

        mutating func literalBlock(deeperThan column: Int, keepFinalNewline: Bool) -> String {
            var body: [String] = []
            var blockIndent: Int?
            while position < lines.count {
                let line = lines[position].text
                if line.allSatisfy({ $0 == " " }) {
                    body.append("")
                    position += 1
                    continue
                }
                let lineIndent = indent(of: line)
                guard lineIndent > column else { break }
                let strip = blockIndent ?? lineIndent
                blockIndent = strip
                body.append(String(line.dropFirst(min(strip, lineIndent))))
                position += 1
            }
            while body.last == "" { body.removeLast() }
            return body.joined(separator: "\n") + (keepFinalNewline ? "\n" : "")
        }

        func scalar(_ raw: String, line: Int) throws -> BlockYAML {
            var text = Substring(raw).trimmingSpaces()
            if let first = text.first, first == "\"" || first == "'" {
                guard let close = text.dropFirst().firstIndex(of: first) else {
                    throw ParseError(line: line, reason: "unterminated quote")
                }
                let after = text[text.index(after: close)...].trimmingSpaces()
                guard after.isEmpty || after.hasPrefix("#") else {
                    throw ParseError(line: line, reason: "text after a quoted scalar")
                }
                return .scalar(String(text[text.index(after: text.startIndex)..<close]))
            }
            if let comment = text.firstRange(of: " #") { text = text[..<comment.lowerBound].trimmingSpaces() }
            if text.hasPrefix("[") {
                guard text.hasSuffix("]") else { throw ParseError(line: line, reason: "unterminated flow list") }
                let inner = text.dropFirst().dropLast()
                return .list(
                    try inner.split(separator: ",").map { try scalar(String($0), line: line) })
            }
            if let first = text.first, "&*{!>%@`".contains(first) {
                throw ParseError(line: line, reason: "'\(first)' is outside the YAML subset this parser reads")
            }
            return .scalar(String(text))
        }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = drop { $0 == " " }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
