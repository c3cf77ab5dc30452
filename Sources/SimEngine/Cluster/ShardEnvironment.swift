/// `--shard auto`: the shard a batch engine gave this process, read from the variables it sets.
///
/// Looked for in this order (the first one present decides; a malformed one is an error, never
/// skipped):
/// 1. `SIMRUN_SHARD=K/N` — a CI matrix, or anything else that can set a variable (1-based, like `--shard`).
/// 2. Slurm job arrays: `SLURM_ARRAY_TASK_ID` within `SLURM_ARRAY_TASK_MIN`…`SLURM_ARRAY_TASK_MAX`,
///    `SLURM_ARRAY_TASK_COUNT` tasks (`SLURM_ARRAY_TASK_STEP` apart). Any contiguous array works
///    (`--array=0-3`, `--array=1-4`, `--array=0-6:2`, `--array=0-15%4`); a list with gaps does not.
/// 3. Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (0-based). Kubernetes does not pass the Job's
///    `completions`, so the count comes from `--shards N` or `SIMRUN_SHARD_COUNT`.
///
/// The type only reads through `lookup`, so it is pure and tested with a dictionary.
public struct ShardEnvironment: Sendable {
    /// Which engine a shard came from.
    public enum Source: String, Sendable, Equatable {
        /// `--shard K/N` on the command line.
        case option = "option"
        /// `SIMRUN_SHARD`.
        case simrunShard = "SIMRUN_SHARD"
        /// A Slurm job array.
        case slurm = "slurm"
        /// A Kubernetes Indexed Job.
        case kubernetes = "kubernetes"
    }

    private let lookup: @Sendable (String) -> String?

    /// An environment read through `lookup` (a variable's value, nil when unset).
    public init(lookup: @escaping @Sendable (String) -> String?) {
        self.lookup = lookup
    }

    /// An environment made of these variables only.
    public init(_ variables: [String: String]) {
        self.init(lookup: { variables[$0] })
    }

    /// This process's environment.
    public static var process: ShardEnvironment {
        ShardEnvironment(lookup: { name in getenv(name).map { String(cString: $0) } })
    }

    /// The shard the engine assigned; `count` is `--shards N` when given (it must agree with what the
    /// engine says, and is required under Kubernetes unless `SIMRUN_SHARD_COUNT` is set).
    public func resolve(count: Int? = nil) throws(ShardError) -> (shard: Shard, source: Source) {
        if let count, count < 1 { throw ShardError("--shards must be at least 1 (got \(count))") }
        let resolved: (Shard, Source)
        if let text = value("SIMRUN_SHARD") {
            do {
                resolved = (try Shard(parsing: text), .simrunShard)
            } catch {
                throw ShardError("SIMRUN_SHARD: \(error.message)")
            }
        } else if let id = value("SLURM_ARRAY_TASK_ID") {
            resolved = (try slurm(id: id), .slurm)
        } else if let index = value("JOB_COMPLETION_INDEX") {
            resolved = (try kubernetes(index: index, count: count), .kubernetes)
        } else {
            throw ShardError(
                "--shard auto found no shard in the environment: set SIMRUN_SHARD=K/N, or run it as a Slurm job array "
                    + "task (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job pod (JOB_COMPLETION_INDEX)")
        }
        if let count, count != resolved.0.count {
            throw ShardError(
                "--shards \(count) disagrees with the \(resolved.1.rawValue) environment, which makes this shard \(resolved.0)"
            )
        }
        return resolved
    }

    /// A variable's value, nil when unset or empty (an empty variable is as good as none).
    private func value(_ name: String) -> String? {
        guard let text = lookup(name), !text.isEmpty else { return nil }
        return text
    }

    private func integer(_ name: String) throws(ShardError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw ShardError("\(name) must be a whole number >= 0 (got '\(text)')")
        }
        return number
    }

    private func slurm(id text: String) throws(ShardError) -> Shard {
        guard let id = try integer("SLURM_ARRAY_TASK_ID") else {
            throw ShardError("SLURM_ARRAY_TASK_ID must be a whole number >= 0 (got '\(text)')")
        }
        guard let low = try integer("SLURM_ARRAY_TASK_MIN"), let high = try integer("SLURM_ARRAY_TASK_MAX") else {
            throw ShardError(
                "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN or SLURM_ARRAY_TASK_MAX is not: is this a job array task?"
            )
        }
        guard low <= id, id <= high else {
            throw ShardError("SLURM_ARRAY_TASK_ID \(id) is outside SLURM_ARRAY_TASK_MIN…MAX (\(low)…\(high))")
        }
        let given = try integer("SLURM_ARRAY_TASK_COUNT")
        var step = try integer("SLURM_ARRAY_TASK_STEP") ?? 1
        if value("SLURM_ARRAY_TASK_STEP") == nil, let given, given > 1, (high - low) % (given - 1) == 0 {
            step = (high - low) / (given - 1)  // a list with even gaps (`--array=1,3,5`) has no STEP variable
        }
        guard step >= 1 else { throw ShardError("SLURM_ARRAY_TASK_STEP must be at least 1") }
        let count = given ?? ((high - low) / step + 1)
        let contiguous = (high - low) % step == 0 && (high - low) / step + 1 == count
        if contiguous && (id - low) % step != 0 {
            guard value("SLURM_ARRAY_TASK_STEP") == nil else {
                // The array is fine; this task's id is off its grid (a hand-set or mistyped variable).
                throw ShardError(
                    "SLURM_ARRAY_TASK_ID \(id) is not a task of the job array \(low)-\(high):\(step) "
                        + "(ids \(low), \(low + step), … \(high))")
            }
            // No STEP: MIN, MAX and COUNT describe an evenly spaced grid the id is not on. Either the
            // id is off that grid, or the array is a list whose gaps only look even at its ends.
            throw ShardError(
                "SLURM_ARRAY_TASK_ID \(id) is not on the evenly spaced grid \(low), \(low + step), … \(high) that "
                    + "SLURM_ARRAY_TASK_MIN, MAX and COUNT (\(count)) describe: either the id is set by hand, or "
                    + "the array is a list with uneven gaps; submit it as --array=0-\(count - 1) so that each task "
                    + "is one shard")
        }
        guard contiguous, (id - low) % step == 0 else {
            throw ShardError(
                "the Slurm job array (tasks \(low)…\(high), \(count) of them) is not one evenly spaced range: "
                    + "submit it as --array=0-\(max(count, 1) - 1) so that each task is one shard")
        }
        return try Shard(number: (id - low) / step + 1, count: count)
    }

    private func kubernetes(index text: String, count given: Int?) throws(ShardError) -> Shard {
        guard let index = try integer("JOB_COMPLETION_INDEX") else {
            throw ShardError("JOB_COMPLETION_INDEX must be a whole number >= 0 (got '\(text)')")
        }
        let fromVariable = try integer("SIMRUN_SHARD_COUNT")
        guard let count = given ?? fromVariable else {
            throw ShardError(
                "JOB_COMPLETION_INDEX is set but the shard count is not: pass --shards N or set SIMRUN_SHARD_COUNT "
                    + "(the Job's completions)")
        }
        if let given, let fromVariable, given != fromVariable {
            throw ShardError("--shards \(given) disagrees with SIMRUN_SHARD_COUNT=\(fromVariable)")
        }
        guard index < count else {
            throw ShardError("JOB_COMPLETION_INDEX \(index) is not below the shard count \(count)")
        }
        return try Shard(number: index + 1, count: count)
    }
}
