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

    var description: String {
        switch self {
        case .fixed(let shard): shard.description
        case .auto: "auto"
        }
    }
}
