import SimCore

/// The results of a campaign's shards merged into the campaign one machine would have run: the
/// same distinct failures (one `FindingsTable`, deduplicated by signature, the lowest seed kept), the
/// same first failure, `sometimes` coverage summed — and the proof that it is the same campaign:
/// every seed it needs was run by exactly one shard. A lost shard, a shard run twice or an
/// interrupted one is reported, never merged into a pass.
public struct CampaignMerge: Sendable {
    /// What a merged finding carries from the shard that had its lowest seed.
    public struct Evidence: Sendable {
        /// The verdict of that run.
        public var verdict: Verdict
        /// The trace the shard saved, as it recorded the path.
        public var trace: String?
        /// The result file it came from.
        public var result: String
        /// That shard's `--out` directory.
        public var out: String
    }

    /// An interrupted shard: its seeds were not all run.
    public struct Interrupted: Sendable {
        /// Its result file.
        public var result: String
        /// Which shard.
        public var shard: Shard
        /// How many schedules it ran before it stopped.
        public var schedules: Int
    }

    /// The scenario every result ran.
    public let scenario: String
    /// The variant every result ran.
    public let variant: String
    /// The strategy every result ran.
    public let strategy: String
    /// Whether the shards kept going after their first failure (all alike).
    public let keepGoing: Bool
    /// The seeds of the whole campaign (from the lowest to the highest of the results' ranges).
    public let seeds: Range<UInt64>
    /// The seeds the verdict depends on: all of `seeds`, or without `keepGoing` those up to the
    /// lowest failing seed (one machine stops there).
    public let required: Range<UInt64>
    /// The distinct failures, as one machine would report them (without `keepGoing`: the first).
    public let findings: FindingsTable<Evidence>
    /// Schedules run by all shards (without `keepGoing`, more than one machine would run: each
    /// shard went on to its own first failure).
    public let schedules: Int
    /// Failing runs: every one with `keepGoing`, else 1 when something failed (as `fuzz` counts).
    public let failures: Int
    /// The shards' rates added up: schedules/s of the cluster while every shard runs.
    public let schedulesPerSecond: Double
    /// Each `sometimes` goal with the runs that reached it, summed over shards (first result's order).
    public let sometimes: [(goal: String, runs: Int)]
    /// Which required seeds no shard ran, and which seeds two shards ran.
    public let coverage: SeedCoverage
    /// Shards stopped by a signal.
    public let interrupted: [Interrupted]
    /// How many results were merged.
    public let resultCount: Int
    /// The campaign's distinct schedules (the union of the shards' digests) and what its runs did not
    /// control; nil when a result did not count them (written by an older simrun).
    public let explored: Explored?

    /// Merges `results` (at least one, all of one scenario, variant, strategy and `keepGoing`).
    public init(_ results: [ShardResult]) throws(MergeError) {
        guard let base = results.first else { throw MergeError(.missing, "no result files to merge") }
        // Everything that makes the shards' runs the same campaign; every difference is named.
        let range = { (result: ShardResult) in "\(result.seeds.lowerBound)..<\(result.seeds.upperBound)" }
        for result in results.dropFirst() {
            let mismatches =
                [
                    ("scenario", result.scenario, base.scenario), ("variant", result.variant, base.variant),
                    ("strategy", result.strategy, base.strategy), ("seeds", range(result), range(base)),
                    (
                        "noise", result.noise.map(String.init) ?? "not recorded",
                        base.noise.map(String.init) ?? "not recorded"
                    ),
                    ("--from trace", result.from ?? "none", base.from ?? "none"),
                    ("keep-going", String(result.keepGoing), String(base.keepGoing)),
                    ("simrun version", result.version ?? "not recorded", base.version ?? "not recorded"),
                ].filter { $0.1 != $0.2 }
            if !mismatches.isEmpty {
                let what = mismatches.map { "\($0.0) \($0.1) (\(base.path): \($0.2))" }.joined(separator: ", ")
                throw MergeError(.inconsistent, "\(result.path) is another campaign: its \(what)")
            }
        }
        scenario = base.scenario
        variant = base.variant
        strategy = base.strategy
        keepGoing = base.keepGoing
        resultCount = results.count
        let low = results.map(\.seeds.lowerBound).min() ?? 0
        let high = results.map(\.seeds.upperBound).max() ?? 0
        seeds = low..<high

        var table = FindingsTable<Evidence>()
        for result in results {
            for finding in result.findings {
                table.record(
                    signature: finding.signature.id, seed: finding.seed,
                    evidence: Evidence(
                        verdict: finding.verdict, trace: finding.trace, result: result.path, out: result.out),
                    occurrences: finding.occurrences)
            }
        }
        let lowestFailure = table.first?.seed
        findings = keepGoing ? table : table.keepingFirstFailure()
        failures = keepGoing ? results.reduce(0) { $0 + $1.failures } : (table.isEmpty ? 0 : 1)
        schedules = results.reduce(0) { $0 + $1.schedules }
        schedulesPerSecond = results.reduce(0) { $0 + ($1.seconds > 0 ? Double($1.schedules) / $1.seconds : 0) }

        var goals: [(goal: String, runs: Int)] = []
        for result in results {
            for (goal, runs) in result.sometimes {
                if let index = goals.firstIndex(where: { $0.goal == goal }) {
                    goals[index].runs += runs
                } else {
                    goals.append((goal, runs))
                }
            }
        }
        sometimes = goals
        var union: Explored? = Explored()
        for result in results {
            guard let part = result.explored else {
                union = nil
                break
            }
            union?.merge(part)
        }
        explored = union

        if !keepGoing, let lowestFailure, lowestFailure < high {
            required = low..<(lowestFailure + 1)
        } else {
            required = seeds
        }
        // An interrupted shard claims its seeds, so they are reported as interrupted, not missing
        // (and a rerun beside it shows as an overlap: keep one of the two files).
        var pieces: [SeedCoverage.Piece] = []
        var stopped: [Interrupted] = []
        for result in results {
            let name = result.path
            if result.interrupted {
                stopped.append(Interrupted(result: name, shard: result.shard, schedules: result.schedules))
                if let claimed = SeedProgression(shard: result.shard, of: result.seeds) {
                    pieces.append(.init(claimed, owner: name))
                }
            } else {
                pieces += result.covered.map { SeedCoverage.Piece($0, owner: name) }
            }
        }
        interrupted = stopped
        do {
            coverage = try SeedCoverage(required: required, pieces: pieces)
        } catch {
            throw MergeError(.inconsistent, error.message)
        }
    }

    /// What a merged campaign amounts to, most telling first.
    public enum Status: Sendable, Equatable {
        /// Something failed (a bug found is never hidden behind an incomplete merge).
        case failed
        /// Some seeds were run twice.
        case overlapping
        /// Some seeds were not run.
        case missing
        /// A shard was interrupted.
        case interrupted
        /// Nothing failed, but the runs used what simrun did not control (``Explored/sawUncontrolled``).
        case inconclusive
        /// The whole campaign ran, every seed once, and passed.
        case passed
    }

    /// The merged campaign's status (SimRunKit gives each its exit code: 1, 65, 66, 130, 2, 0).
    public var status: Status {
        if !findings.isEmpty { return .failed }
        if !coverage.overlaps.isEmpty { return .overlapping }
        if !coverage.missing.isEmpty { return .missing }
        if !interrupted.isEmpty { return .interrupted }
        if explored?.sawUncontrolled == true { return .inconclusive }
        return .passed
    }

    /// True when every required seed was run exactly once and no shard was interrupted.
    public var isComplete: Bool { coverage.missing.isEmpty && coverage.overlaps.isEmpty && interrupted.isEmpty }
}

/// Why results cannot be merged at all.
public struct MergeError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem, for the exit status.
    public enum Kind: Sendable {
        /// Nothing to merge (66).
        case missing
        /// Results of different campaigns, or splits that cannot be checked (65).
        case inconsistent
    }

    /// What kind of problem.
    public var kind: Kind
    /// One line saying what.
    public var message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
