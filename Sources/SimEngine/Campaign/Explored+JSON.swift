import SimCore

extension Explored {
    /// The `explored` member of a result document (schema `simrun.result/1`): `runs`, `distinct`,
    /// `atLeast` (true: `distinct` is a lower bound), `withoutDecisions`, `uncontrolled` (`[{kind,
    /// runs, occurrences, seed, detail, site}]`, by kind) and `note` (what a pass must still say, or
    /// null). With `digests` (a shard's result, a child's record) also `digests`: the distinct
    /// schedule digests as one string of 16 hex digits each, or null once past the bound.
    public func json(digests withDigests: Bool = false) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("runs", .int(Int64(runs))), .init("distinct", .int(Int64(distinct))),
            .init("atLeast", .bool(isLowerBound)), .init("withoutDecisions", .int(Int64(runsWithoutDecisions))),
            .init(
                "uncontrolled",
                .array(
                    uncontrolled.map {
                        .object([
                            "kind": .string($0.kind.rawValue), "runs": .int(Int64($0.runs)),
                            "occurrences": .int(Int64($0.occurrences)), "seed": .unsigned($0.seed),
                            "detail": .string($0.example.detail), "site": .string($0.example.site),
                        ])
                    })),
            .init("note", .optional(note)),
        ]
        if withDigests {
            let known = !isLowerBound && digests.count == distinct
            members.append(.init("digests", known ? .string(Self.hex(digests)) : .null))
        }
        return .object(members)
    }

    /// Reads the member back; nil when it is not one (a document written before simrun counted it).
    public init?(json value: JSONValue) {
        guard let runs = value["runs"]?.intValue, let distinct = value["distinct"]?.intValue,
            let atLeast = value["atLeast"]?.boolValue, let silent = value["withoutDecisions"]?.intValue,
            let list = value["uncontrolled"]?.arrayValue
        else { return nil }
        var entries: [Uncontrolled] = []
        for item in list {
            guard let kind = item["kind"]?.stringValue, let count = item["runs"]?.intValue,
                let occurrences = item["occurrences"]?.intValue, let seed = item["seed"]?.unsignedValue,
                let detail = item["detail"]?.stringValue, let site = item["site"]?.stringValue
            else { return nil }
            let name = UncontrolledKind(rawValue: kind)
            entries.append(
                Uncontrolled(
                    kind: name, runs: count, occurrences: occurrences,
                    example: SimCore.Uncontrolled(kind: name, detail: detail, site: site), seed: seed))
        }
        var digests: Set<UInt64> = []
        if let text = value["digests"]?.stringValue {
            guard let read = Self.digests(hex: text) else { return nil }
            digests = read
        }
        self.init(
            runs: runs, distinct: distinct, isLowerBound: atLeast || digests.count != distinct,
            runsWithoutDecisions: silent, uncontrolled: entries, digests: digests.count == distinct ? digests : [])
    }

    /// The digests, sorted, 16 lowercase hex digits each, in one string.
    static func hex(_ digests: Set<UInt64>) -> String {
        var text = ""
        text.reserveCapacity(digests.count * 16)
        for digest in digests.sorted() {
            let digits = String(digest, radix: 16)
            text += String(repeating: "0", count: 16 - digits.count) + digits
        }
        return text
    }

    /// The digests of `hex`, or nil when it is not whole 16-digit hex numbers.
    static func digests(hex text: String) -> Set<UInt64>? {
        let bytes = Array(text.utf8)
        guard bytes.count % 16 == 0 else { return nil }
        var digests: Set<UInt64> = []
        var position = 0
        while position < bytes.count {
            guard let value = UInt64(String(decoding: bytes[position..<position + 16], as: UTF8.self), radix: 16)
            else { return nil }
            digests.insert(value)
            position += 16
        }
        return digests
    }
}
