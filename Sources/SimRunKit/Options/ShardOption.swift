import ArgumentParser

/// `--shard K/N`: run every N-th seed starting at the K-th (1-based), so N machines together run
/// exactly the seeds one would.
struct ShardOption: ExpressibleByArgument, Sendable, Equatable {
    /// 0-based index of this shard.
    var index: Int
    /// How many shards in all.
    var count: Int

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 1 ≤ K ≤ N ≤ 1,000,000.
    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, k >= 1, k <= n
        else { return nil }
        index = k - 1
        count = n
    }

    var description: String { "\(index + 1)/\(count)" }
}
