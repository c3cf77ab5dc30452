/// Whether a set of shards covered every seed of a campaign exactly once: the seeds no shard ran
/// (a lost shard) and the seeds two shards both ran (a shard run twice, or shard counts that
/// disagree). `simrun merge` refuses to call a campaign passed while either list is non-empty.
///
/// Each shard's seeds are a progression; progressions of different steps are split into classes of
/// one common step `L` (the least common multiple, at most `maxCommonStep`), and each class is an
/// interval of indices, so the check costs O(L + pieces log pieces), never one step per seed.
public struct SeedCoverage: Sendable {
    /// A piece of coverage and who claims it (a result file's name, for messages).
    public struct Piece: Sendable {
        /// The seeds.
        public var seeds: SeedProgression
        /// Who ran them.
        public var owner: String

        /// `seeds`, run by `owner`.
        public init(_ seeds: SeedProgression, owner: String) {
            self.seeds = seeds
            self.owner = owner
        }
    }

    /// Seeds run by more than one piece.
    public struct Overlap: Sendable, Equatable {
        /// The seeds.
        public var seeds: SeedProgression
        /// The owners that ran them, in the order given.
        public var owners: [String]
    }

    /// The largest common step the check splits progressions into (shard counts whose least common
    /// multiple is larger are refused: no campaign is split that way on purpose).
    public static let maxCommonStep: UInt64 = 1 << 16

    /// Seeds in `required` that no piece covers, lowest first (a whole missing stretch as one
    /// contiguous progression where it can be).
    public private(set) var missing: [SeedProgression] = []
    /// Seeds (anywhere) covered by more than one piece, lowest first.
    public private(set) var overlaps: [Overlap] = []

    /// How many seeds are missing.
    public var missingCount: UInt64 { missing.reduce(0) { $0 + $1.count } }

    /// Checks `pieces` against `required`: every seed of it covered, no seed covered twice.
    public init(required: Range<UInt64>, pieces: [Piece]) throws(CoverageError) {
        var common: UInt64 = 1
        for piece in pieces {
            common = Self.leastCommonMultiple(common, piece.seeds.step)
            guard common <= Self.maxCommonStep else {
                throw CoverageError(
                    "the results' shard counts have no common multiple up to \(Self.maxCommonStep): merge results of one split"
                )
            }
        }
        let origin = min(required.lowerBound, pieces.map(\.seeds.first).min() ?? required.lowerBound)
        // Per residue class (seed - origin) % common: intervals of index (seed - origin) / common.
        var classes = [[(low: UInt64, high: UInt64, owner: Int)]](repeating: [], count: Int(common))
        for (position, piece) in pieces.enumerated() {
            let seeds = piece.seeds
            var first = seeds.first
            for _ in 0..<(common / seeds.step) {
                let residue = (first - origin) % common
                let last = first + (seeds.last - first) / common * common
                classes[Int(residue)].append(((first - origin) / common, (last - origin) / common, position))
                let (next, overflow) = first.addingReportingOverflow(seeds.step)
                guard !overflow, next <= seeds.last else { break }
                first = next
            }
        }
        var gaps: [(residue: UInt64, low: UInt64, high: UInt64)] = []
        var doubles: [(residue: UInt64, low: UInt64, high: UInt64, owners: [Int])] = []
        for residue in 0..<common {
            let intervals = classes[Int(residue)].sorted { ($0.low, $0.owner) < ($1.low, $1.owner) }
            // The indices of this class that fall inside `required`.
            let needed = Self.indices(of: required, residue: residue, origin: origin, step: common)
            var next = needed?.lowerBound ?? 0  // the lowest needed index not yet covered
            var reach: (high: UInt64, owner: Int)? = nil  // the interval reaching furthest so far
            for interval in intervals {
                if let needed, interval.low > next, next < needed.upperBound {
                    gaps.append((residue, next, min(interval.low, needed.upperBound) - 1))
                }
                if let current = reach, interval.low <= current.high {
                    doubles.append(
                        (residue, interval.low, min(interval.high, current.high), [current.owner, interval.owner]))
                }
                if interval.high >= (reach?.high ?? 0) || reach == nil { reach = (interval.high, interval.owner) }
                next = max(next, interval.high &+ 1)
            }
            if let needed, next < needed.upperBound { gaps.append((residue, next, needed.upperBound - 1)) }
        }
        missing = Self.progressions(gaps, origin: origin, step: common)
        overlaps = doubles.compactMap { double in
            SeedProgression(
                first: origin + double.low * common + double.residue,
                last: origin + double.high * common + double.residue, step: common
            ).map { Overlap(seeds: $0, owners: double.owners.map { pieces[$0].owner }) }
        }.sorted { $0.seeds.first < $1.seeds.first }
    }

    /// The indices `i` with `origin + i * step + residue` in `range`, or nil when there are none.
    private static func indices(of range: Range<UInt64>, residue: UInt64, origin: UInt64, step: UInt64)
        -> Range<UInt64>?
    {
        guard !range.isEmpty else { return nil }
        let base = origin + residue
        guard base < range.upperBound else { return nil }
        let low = range.lowerBound > base ? (range.lowerBound - base + step - 1) / step : 0
        let high = (range.upperBound - 1 - base) / step + 1
        return low < high ? low..<high : nil
    }

    /// Gaps as seed progressions; gaps over the same indices in every class are one contiguous stretch.
    private static func progressions(
        _ gaps: [(residue: UInt64, low: UInt64, high: UInt64)], origin: UInt64, step: UInt64
    ) -> [SeedProgression] {
        var result: [SeedProgression] = []
        struct Span: Hashable {
            var low: UInt64
            var high: UInt64
        }
        // How many classes miss exactly these indices (a class has at most one gap per span). Only
        // looked up, never iterated: the output order comes from `gaps`.
        var classesMissing: [Span: Int] = [:]
        for gap in gaps { classesMissing[Span(low: gap.low, high: gap.high), default: 0] += 1 }
        for gap in gaps {
            if step > 1, classesMissing[Span(low: gap.low, high: gap.high)] == Int(step) {
                if gap.residue == 0,
                    let whole = SeedProgression(
                        first: origin + gap.low * step, last: origin + gap.high * step + step - 1)
                {
                    result.append(whole)
                }
                continue
            }
            if let seeds = SeedProgression(
                first: origin + gap.low * step + gap.residue, last: origin + gap.high * step + gap.residue, step: step)
            {
                result.append(seeds)
            }
        }
        return result.sorted { ($0.first, $0.step) < ($1.first, $1.step) }
    }

    private static func leastCommonMultiple(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        let (product, overflow) = (a / x).multipliedReportingOverflow(by: b)
        return overflow ? .max : product
    }
}

/// Why coverage could not be checked: one line.
public struct CoverageError: Error, Sendable, CustomStringConvertible {
    /// The line to print.
    public var message: String

    /// An error with this message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
