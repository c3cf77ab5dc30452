/// One shard of a campaign split across machines: shard `number` (1-based, as `--shard K/N` writes
/// it) of `count`. Shard K of N runs every N-th seed starting at the K-th, so N shards together run
/// exactly the seeds one machine would, each once.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// The shard's number, 1-based (`K` in `K/N`).
    public let number: Int
    /// How many shards split the campaign (`N` in `K/N`).
    public let count: Int

    /// The whole campaign as one shard.
    public static let whole = Shard(uncheckedNumber: 1, count: 1)

    /// Shard `number` (1-based) of `count`; throws unless `1 <= number <= count`.
    public init(number: Int, count: Int) throws(ShardError) {
        guard count >= 1, number >= 1, number <= count else {
            throw ShardError("a shard must be K/N with 1 <= K <= N (got \(number)/\(count))")
        }
        self.number = number
        self.count = count
    }

    private init(uncheckedNumber: Int, count: Int) {
        self.number = uncheckedNumber
        self.count = count
    }

    /// Parses `K/N` (1-based), e.g. `2/4`.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let number = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShardError("a shard must look like K/N, e.g. 2/4 (got '\(text)')")
        }
        try self.init(number: number, count: count)
    }

    /// The shard's index, 0-based (what the seed formula uses).
    public var index: Int { number - 1 }

    /// `K/N`.
    public var description: String { "\(number)/\(count)" }
}

/// Why a shard could not be worked out: one line for a usage error (exit 64).
public struct ShardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line to print.
    public var message: String

    /// An error with this message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
