/// Which seed a campaign runs at each index: the one place the seed formula lives.
///
/// Index `i` of shard `k` (0-based) of `n` runs seed `lower + i * n + k`, so `n` shards together run
/// exactly the seeds one machine would, each seed once. Workers (threads or processes) claim indices
/// in chunks of `chunkSize` from one shared counter: one atomic add per chunk, and a worker that gets
/// less of the machine takes fewer chunks instead of holding the campaign up.
public struct SeedSpace: Sendable, Equatable, Codable {
    /// The seeds to run; the upper bound is ignored when `bounded` is false (a `--time` campaign).
    public var seeds: Range<UInt64>
    /// This shard, 0-based.
    public var shardIndex: Int
    /// How many shards split the seeds.
    public var shardCount: Int
    /// False for a campaign that runs until a deadline: then only the lower bound (and overflow) ends it.
    public var bounded: Bool

    /// Seed indices a worker claims at a time.
    public static let chunkSize: UInt64 = 64

    /// The seeds of shard `shardIndex` (0-based) of `shardCount` within `seeds`.
    public init(seeds: Range<UInt64>, shardIndex: Int = 0, shardCount: Int = 1, bounded: Bool = true) {
        precondition(
            shardCount >= 1 && shardIndex >= 0 && shardIndex < shardCount, "shard \(shardIndex) of \(shardCount)")
        self.seeds = seeds
        self.shardIndex = shardIndex
        self.shardCount = shardCount
        self.bounded = bounded
    }

    /// The seed at `index`, or nil past the end of the space (or where the formula would overflow).
    public func seed(at index: UInt64) -> UInt64? {
        let (scaled, o1) = index.multipliedReportingOverflow(by: UInt64(shardCount))
        let (offset, o2) = scaled.addingReportingOverflow(UInt64(shardIndex))
        let (seed, o3) = seeds.lowerBound.addingReportingOverflow(offset)
        guard !o1 && !o2 && !o3 else { return nil }
        if bounded && seed >= seeds.upperBound { return nil }
        return seed
    }

    /// How many seeds the space holds (nil when unbounded).
    public var count: UInt64? {
        guard bounded else { return nil }
        let width = UInt64(seeds.count)
        let shards = UInt64(shardCount)
        let index = UInt64(shardIndex)
        return width > index ? (width - index + shards - 1) / shards : 0
    }

    /// The chunk of indices that starts at `start` (the value a worker took from the shared counter),
    /// or nil when the counter has run past what a chunk can address.
    public static func chunk(startingAt start: UInt64) -> Range<UInt64>? {
        let (end, overflow) = start.addingReportingOverflow(chunkSize)
        return overflow ? nil : start..<end
    }
}
