import ArgumentParser
import SimEngine

/// `--shard K/N`: run every N-th seed starting at the K-th (1-based), so N machines together run
/// exactly the seeds one would; or `--shard auto`: read K/N from the batch engine's environment
/// (`SIMRUN_SHARD`, a Slurm job array, a Kubernetes Indexed Job; see `ShardEnvironment`).
enum ShardOption: ExpressibleByArgument, Sendable, Equatable {
    case fixed(Shard)
    case auto

    /// Parses `auto`, or `K/N` with 1 ≤ K ≤ N ≤ 1,000,000.
    init?(argument: String) {
        if argument == "auto" {
            self = .auto
            return
        }
        guard let shard = try? Shard(parsing: argument), shard.count <= 1_000_000 else { return nil }
        self = .fixed(shard)
    }

    /// Parses the option's text, saying why it is refused (`5/4`: K above N).
    @Sendable static func parse(_ text: String) throws -> ShardOption {
        if text == "auto" { return .auto }
        do {
            let shard = try Shard(parsing: text)
            guard shard.count <= 1_000_000 else {
                throw NumberArgument.Refused(description: "at most 1000000 shards (got \(shard.count))")
            }
            return .fixed(shard)
        } catch let error as ShardError {
            throw NumberArgument.Refused(description: error.message + ", or auto")
        }
    }

    var description: String {
        switch self {
        case .fixed(let shard): shard.description
        case .auto: "auto"
        }
    }
}
