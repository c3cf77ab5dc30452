/// Seeds `first`, `first + step`, …, `last`: what one shard of a campaign covers (shard K of N runs
/// every N-th seed), or a stretch of seeds that no shard covered.
public struct SeedProgression: Sendable, Hashable, CustomStringConvertible {
    /// The lowest seed.
    public let first: UInt64
    /// The highest seed (`first` plus a multiple of `step`).
    public let last: UInt64
    /// The distance between two seeds, at least 1.
    public let step: UInt64

    /// Seeds `first`, `first + step`, … up to `last`; nil unless `first <= last`, `step >= 1` and
    /// `last - first` is a multiple of `step`.
    public init?(first: UInt64, last: UInt64, step: UInt64 = 1) {
        guard step >= 1, first <= last, (last - first) % step == 0 else { return nil }
        self.first = first
        self.last = last
        self.step = step
    }

    /// The seeds of shard `shard` within `seeds`, up to `through` (a shard that stopped at its first
    /// failure ran every one of its seeds up to that one); nil when that leaves none.
    public init?(shard: Shard, of seeds: Range<UInt64>, through: UInt64 = .max) {
        let (first, overflow) = seeds.lowerBound.addingReportingOverflow(UInt64(shard.index))
        guard !overflow, first < seeds.upperBound, first <= through else { return nil }
        let end = min(seeds.upperBound - 1, through)
        let step = UInt64(shard.count)
        self.init(first: first, last: first + (end - first) / step * step, step: step)
    }

    /// How many seeds.
    public var count: UInt64 { (last - first) / step + 1 }

    /// True when `seed` is one of these.
    public func contains(_ seed: UInt64) -> Bool {
        seed >= first && seed <= last && (seed - first) % step == 0
    }

    /// `seed 5`, `seeds 5, 9, 13`, `seeds 100…199 (100 seeds)`, `seeds 1, 5, …, 997 (every 4th, 250 seeds)`.
    public var description: String {
        switch count {
        case 1: return "seed \(first)"
        case 2...4: return "seeds " + (0..<count).map { String(first + $0 * step) }.joined(separator: ", ")
        default:
            if step == 1 { return "seeds \(first)…\(last) (\(count) seeds)" }
            return "seeds \(first), \(first + step), …, \(last) (every \(Self.ordinal(step)), \(count) seeds)"
        }
    }

    private static func ordinal(_ number: UInt64) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }
}
