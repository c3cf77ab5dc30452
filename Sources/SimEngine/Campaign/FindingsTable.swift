/// The distinct failures of a campaign: one entry per failure signature, holding the lowest seed
/// that showed it (with that run's `Evidence`) and how many runs did.
///
/// A value type with an order-independent `merge`: workers keep tables of their own and the campaign
/// merges them, and tables from separate shards merge into the table one machine would have built.
/// Iteration is by seed (then signature), never in hash order.
public struct FindingsTable<Evidence: Sendable>: Sendable {
    /// One distinct failure.
    public struct Entry: Sendable {
        /// `FailureSignature.id` of the failure.
        public var signature: UInt64
        /// The lowest seed that showed it.
        public var seed: UInt64
        /// What the run at `seed` left (a digest to check a re-run against, a trap message, a tape…).
        public var evidence: Evidence
        /// How many runs failed this way.
        public var occurrences: Int

        /// An entry for `occurrences` runs whose lowest seed is `seed`.
        public init(signature: UInt64, seed: UInt64, evidence: Evidence, occurrences: Int = 1) {
            precondition(occurrences >= 1, "an entry stands for at least one failing run")
            self.signature = signature
            self.seed = seed
            self.evidence = evidence
            self.occurrences = occurrences
        }
    }

    private var bySignature: [UInt64: Entry] = [:]

    /// An empty table.
    public init() {}

    /// Records `occurrences` failing runs with `signature`, the lowest of them at `seed`.
    public mutating func record(signature: UInt64, seed: UInt64, evidence: Evidence, occurrences: Int = 1) {
        add(Entry(signature: signature, seed: seed, evidence: evidence, occurrences: occurrences))
    }

    /// Adds an entry: occurrences summed, the lower seed (and its evidence) kept. On equal seeds the
    /// entry already there stays, so merging is deterministic whatever order tables arrive in.
    public mutating func add(_ entry: Entry) {
        guard var existing = bySignature[entry.signature] else {
            bySignature[entry.signature] = entry
            return
        }
        existing.occurrences += entry.occurrences
        if entry.seed < existing.seed {
            existing.seed = entry.seed
            existing.evidence = entry.evidence
        }
        bySignature[entry.signature] = existing
    }

    /// Merges another table (another worker's, another shard's) into this one.
    public mutating func merge(_ other: FindingsTable) {
        for entry in other.entries { add(entry) }
    }

    /// The table with `other` merged in.
    public func merging(_ other: FindingsTable) -> FindingsTable {
        var merged = self
        merged.merge(other)
        return merged
    }

    /// The distinct failures, lowest seed first (ties broken by signature).
    public var entries: [Entry] {
        bySignature.values.sorted { ($0.seed, $0.signature) < ($1.seed, $1.signature) }
    }

    /// How many distinct failures.
    public var count: Int { bySignature.count }

    /// True when no run failed.
    public var isEmpty: Bool { bySignature.isEmpty }

    /// How many runs failed, over all signatures.
    public var failingRuns: Int { bySignature.values.reduce(0) { $0 + $1.occurrences } }

    /// The entry with the lowest seed, if any.
    public var first: Entry? { entries.first }

    /// The first-failure rule, for a campaign that stops at its first failure: only the lowest
    /// failing seed, counted once. Workers may have run seeds past it before they saw the stop line;
    /// a campaign run seed by seed would have stopped there, having seen one failure.
    public func keepingFirstFailure() -> FindingsTable {
        var kept = FindingsTable()
        if var first {
            first.occurrences = 1
            kept.add(first)
        }
        return kept
    }

    /// The same table with each entry's evidence transformed.
    public func mapEvidence<Other: Sendable>(_ transform: (Entry) throws -> Other) rethrows -> FindingsTable<Other> {
        var mapped = FindingsTable<Other>()
        for entry in bySignature.values {
            mapped.add(
                .init(
                    signature: entry.signature, seed: entry.seed, evidence: try transform(entry),
                    occurrences: entry.occurrences))
        }
        return mapped
    }
}

extension FindingsTable.Entry: Equatable where Evidence: Equatable {}

extension FindingsTable.Entry: Codable where Evidence: Codable {}

/// A table is stored as its entries, lowest seed first: a shard's result file holds one, and
/// `merge` of the decoded tables gives the table of the whole campaign.
extension FindingsTable: Codable where Evidence: Codable {
    /// Decodes the entries and adds them one by one (a file that repeats a signature merges it).
    public init(from decoder: any Decoder) throws {
        self.init()
        for entry in try [Entry](from: decoder) { add(entry) }
    }

    /// Encodes the entries, lowest seed first.
    public func encode(to encoder: any Encoder) throws { try entries.encode(to: encoder) }
}
