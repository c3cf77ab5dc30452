import SimCore

/// The line a worker process prints the first time it sees a kind of thing its runs did not control:
/// `uncontrolled {"seed":…,"kind":…,"detail":…,"site":…}` (the board counts the kind by a hash of
/// its name; this gives the parent the name and the worker's first example, its lowest seed's).
package struct UncontrolledLine: Equatable, Sendable {
    /// The seed of the run that saw it.
    package var seed: UInt64
    /// What it saw.
    package var example: Uncontrolled

    package init(seed: UInt64, example: Uncontrolled) {
        self.seed = seed
        self.example = example
    }

    private static let prefix = "uncontrolled "

    /// The line's text, without the newline.
    package var text: String {
        Self.prefix
            + JSONValue.object([
                "seed": .unsigned(seed), "kind": .string(example.kind.rawValue), "detail": .string(example.detail),
                "site": .string(example.site),
            ]).text
    }

    /// Parses a line (without its newline); nil for anything else.
    package init?(parsing line: ArraySlice<UInt8>) {
        let prefix = Array(Self.prefix.utf8)
        guard line.count > prefix.count, line.prefix(prefix.count).elementsEqual(prefix),
            let value = try? JSONValue(parsing: String(decoding: line.dropFirst(prefix.count), as: UTF8.self)),
            let seed = value["seed"]?.unsignedValue, let kind = value["kind"]?.stringValue,
            let detail = value["detail"]?.stringValue, let site = value["site"]?.stringValue
        else { return nil }
        self.init(seed: seed, example: Uncontrolled(kind: UncontrolledKind(rawValue: kind), detail: detail, site: site))
    }

    /// The hash a board counts the kind by.
    package var kindHash: UInt64 { Digest.hash(text: example.kind.rawValue) | 1 }
}
