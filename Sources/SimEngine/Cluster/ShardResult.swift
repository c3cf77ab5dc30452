import SimCore

/// One shard's result file, as `simrun merge` reads it: the `fuzz --json` document (schema
/// `simrun.result/1`) plus the members a shard adds — `covered` (the seeds it ran, as progressions),
/// `keepGoing`, `out` (its trace directory) and `shardSource`.
public struct ShardResult: Sendable {
    /// One distinct failure of the shard.
    public struct Finding: Sendable {
        /// The verdict of its lowest seed.
        public var verdict: Verdict
        /// The lowest seed of the shard that failed this way.
        public var seed: UInt64
        /// How many of the shard's runs failed this way.
        public var occurrences: Int
        /// The saved trace, as the shard wrote it (nil when it could not be saved).
        public var trace: String?

        /// What makes two failures the same.
        public var signature: FailureSignature { FailureSignature(verdict) }
    }

    /// The file it was read from.
    public var path: String
    /// The scenario it ran.
    public var scenario: String
    /// The variant it ran.
    public var variant: String
    /// The strategy, as `fuzz` prints it (`pct:depth=3`).
    public var strategy: String
    /// The trace whose schedule every run started from (`fuzz --from`), or nil.
    public var from: String?
    /// The campaign's seed range (every shard of one campaign has the same).
    public var seeds: Range<UInt64>
    /// Which shard this is.
    public var shard: Shard
    /// Without it the shard stopped at its first failure (and covered its seeds up to that one).
    public var keepGoing: Bool
    /// Stopped by a signal: `covered` is empty, which seeds ran is not known.
    public var interrupted: Bool
    /// The seeds the shard ran, every one of them.
    public var covered: [SeedProgression]
    /// Schedules run.
    public var schedules: Int
    /// Failing runs (every one, not only distinct ones).
    public var failures: Int
    /// Wall-clock seconds the shard's campaign ran.
    public var seconds: Double
    /// Its distinct failures, lowest seed first.
    public var findings: [Finding]
    /// Each `sometimes` goal and how many runs reached it, in declaration order.
    public var sometimes: [(goal: String, runs: Int)]
    /// The `--out` directory the shard saved its traces in.
    public var out: String
    /// The shard's exit status.
    public var exitCode: Int32
    /// Noise lanes of its runs (nil in results written before simrun recorded it).
    public var noise: Int?
    /// The simrun version that ran it (nil in results written before simrun recorded it).
    public var version: String?
    /// The distinct schedules it ran and what its runs did not control (nil in results written
    /// before simrun counted them); its digests come from the shard's `exploredDigests`, so that
    /// `merge` counts the campaign's distinct schedules, not the shards' sum.
    public var explored: Explored?

    /// The members a shard adds to its `fuzz` document (after the ones `fuzz --json` prints):
    /// `exploredDigests` is the shard's distinct schedule digests (16 hex digits each; null past
    /// ``Explored/maxCounted``).
    public static func members(
        covered: [SeedProgression], keepGoing: Bool, out: String, shard: Shard, source: String,
        explored: Explored? = nil
    ) -> [JSONValue.Member] {
        let digests = explored.flatMap { $0.json(digests: true)["digests"] } ?? .null
        return [
            .init("exploredDigests", digests),
            .init(
                "covered",
                .array(
                    covered.map {
                        .object(["first": .unsigned($0.first), "last": .unsigned($0.last), "step": .unsigned($0.step)])
                    })),
            .init("shardNumber", .int(Int64(shard.number))), .init("shardCount", .int(Int64(shard.count))),
            .init("shardSource", .string(source)), .init("keepGoing", .bool(keepGoing)), .init("out", .string(out)),
        ]
    }

    /// Reads a result document; `path` names it in errors.
    public init(parsing text: String, path: String) throws(ShardResultError) {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: text)
        } catch {
            throw ShardResultError(path: path, reason: "not JSON (\(error))")
        }
        let reader = Reader(document: document, path: path)
        guard document["schema"]?.stringValue == "simrun.result/1" else {
            throw reader.error("not a simrun result document (schema simrun.result/1)")
        }
        guard try reader.string("command") == "fuzz" else { throw reader.error("not the result of `simrun fuzz`") }
        if document["shardNumber"] == nil {
            throw reader.error(
                "a `fuzz --json` document, not a shard result: write each shard's result with `fuzz --result FILE`")
        }
        self.path = path
        scenario = try reader.string("scenario")
        variant = try reader.string("variant")
        strategy = try reader.string("strategy")
        from = document["from"]?.stringValue
        guard let range = document["seeds"], let low = range["from"]?.unsignedValue,
            let high = range["to"]?.unsignedValue, low < high
        else { throw reader.error("no seed range (a shard result needs --seeds, not --time)") }
        seeds = low..<high
        let (number, count) = (try reader.int("shardNumber"), try reader.int("shardCount"))
        do {
            shard = try Shard(number: number, count: count)
        } catch {
            throw reader.error(error.message)
        }
        keepGoing = try reader.bool("keepGoing")
        interrupted = try reader.bool("interrupted")
        covered = try reader.array("covered").map { (item: JSONValue) throws(ShardResultError) -> SeedProgression in
            guard let first = item["first"]?.unsignedValue, let last = item["last"]?.unsignedValue,
                let step = item["step"]?.unsignedValue,
                let seeds = SeedProgression(first: first, last: last, step: step)
            else { throw reader.error("a 'covered' entry is not a progression {first, last, step}") }
            return seeds
        }
        schedules = try reader.int("schedules")
        failures = try reader.int("failures")
        guard let elapsed = document["seconds"]?.doubleValue else { throw reader.error("no 'seconds'") }
        seconds = elapsed
        findings = try reader.array("findings").map { (item: JSONValue) throws(ShardResultError) -> Finding in
            guard let oracle = item["oracle"]?.stringValue, let message = item["message"]?.stringValue,
                let seed = item["seed"]?.unsignedValue, let occurrences = item["occurrences"]?.intValue,
                occurrences >= 1
            else { throw reader.error("a finding lacks oracle, message, seed or occurrences") }
            let verdict: Verdict = oracle == "crashed" ? .crashed(message) : .fail(oracle: oracle, message: message)
            return Finding(verdict: verdict, seed: seed, occurrences: occurrences, trace: item["trace"]?.stringValue)
        }
        sometimes = try reader.array("sometimes").map { (item: JSONValue) throws(ShardResultError) -> (String, Int) in
            guard let goal = item["goal"]?.stringValue, let runs = item["runs"]?.intValue else {
                throw reader.error("a 'sometimes' entry lacks goal or runs")
            }
            return (goal, runs)
        }
        out = try reader.string("out")
        guard let code = document["exitCode"]?.intValue.flatMap({ Int32(exactly: $0) }) else {
            throw reader.error("no 'exitCode'")
        }
        exitCode = code
        noise = document["noise"]?.intValue
        version = document["version"]?.stringValue
        explored = try Self.explored(document, reader: reader)
    }

    /// The `explored` member with the shard's digests, nil when the result has none.
    private static func explored(_ document: JSONValue, reader: Reader) throws(ShardResultError) -> Explored? {
        guard case .object(var members)? = document["explored"] else { return nil }
        if let digests = document["exploredDigests"], digests != .null {
            members.append(.init("digests", digests))
        }
        guard let explored = Explored(json: .object(members)) else {
            throw reader.error("'explored' is not a count of schedules {runs, distinct, atLeast, …}")
        }
        return explored
    }

    /// Typed access to a document's members, with errors that name the file and the member.
    private struct Reader {
        var document: JSONValue
        var path: String

        func error(_ reason: String) -> ShardResultError { ShardResultError(path: path, reason: reason) }

        func string(_ key: String) throws(ShardResultError) -> String {
            guard let value = document[key]?.stringValue else { throw error("no string '\(key)'") }
            return value
        }

        func int(_ key: String) throws(ShardResultError) -> Int {
            guard let value = document[key]?.intValue, value >= 0 else { throw error("no count '\(key)'") }
            return value
        }

        func bool(_ key: String) throws(ShardResultError) -> Bool {
            guard let value = document[key]?.boolValue else { throw error("no boolean '\(key)'") }
            return value
        }

        func array(_ key: String) throws(ShardResultError) -> [JSONValue] {
            guard let value = document[key]?.arrayValue else { throw error("no array '\(key)'") }
            return value
        }
    }
}

/// A result file that cannot be read as one shard's result: the file and what is wrong.
public struct ShardResultError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
