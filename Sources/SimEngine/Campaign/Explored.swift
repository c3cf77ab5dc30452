import SimCore

/// What a campaign explored (issue #40): how many distinct schedules its runs took, and what they saw
/// but did not control. Every campaign carries one — `fuzz`, its `--json` and shard results,
/// `merge`, SimTesting's `explore` and `simulate` — because a pass says only as much as what ran.
///
/// A *schedule* is a run's sequence of decisions (each one's kind, the option taken, the options
/// offered), as `RunResult.scheduleDigest` hashes it: two runs of one scenario and variant with
/// the same digest made the same decisions, so ran the same events. ``distinct`` counts the
/// campaign's distinct digests exactly up to ``maxCounted``; past it, it is a lower bound
/// (``isLowerBound``). A campaign of many runs that took one schedule explored nothing beyond it.
///
/// Each kind of `Uncontrolled` observation is counted by the runs that saw it, with the
/// one seen by the lowest seed as its example, so the figures do not depend on how many workers ran.
public struct Explored: Sendable, Equatable {
    /// One kind of thing the runs saw but did not control.
    public struct Uncontrolled: Sendable, Equatable {
        /// The kind.
        public var kind: UncontrolledKind
        /// Runs that saw it at least once.
        public var runs: Int
        /// Times it was seen, over every run.
        public var occurrences: Int
        /// What the lowest seed that saw it saw first (its detail and site; its count is 1).
        public var example: SimCore.Uncontrolled
        /// That seed.
        public var seed: UInt64

        /// A kind's counts and example.
        public init(kind: UncontrolledKind, runs: Int, occurrences: Int, example: SimCore.Uncontrolled, seed: UInt64) {
            self.kind = kind
            self.runs = runs
            self.occurrences = occurrences
            self.example = example
            self.seed = seed
        }

        /// Adds `other`'s counts (the same kind); the example of the lower seed stays.
        mutating func add(_ other: Uncontrolled) {
            runs += other.runs
            occurrences += other.occurrences
            if other.seed < seed {
                example = other.example
                seed = other.seed
            }
        }
    }

    /// The most distinct schedules counted exactly; past it ``distinct`` is a lower bound.
    public static let maxCounted = 16_384

    /// Runs counted.
    public private(set) var runs = 0
    /// Distinct schedules among them: exact while ``isLowerBound`` is false.
    public private(set) var distinct = 0
    /// More than ``maxCounted`` distinct schedules ran: ``distinct`` is a lower bound.
    public private(set) var isLowerBound = false
    /// Runs that made no decision at all (the scheduler was offered no choice).
    public private(set) var runsWithoutDecisions = 0
    /// What the runs saw but did not control, one entry per kind, by kind name.
    public private(set) var uncontrolled: [Uncontrolled] = []
    /// The distinct schedule digests while they are counted exactly (empty once past the bound).
    package private(set) var digests: Set<UInt64> = []

    /// Nothing counted yet.
    public init() {}

    /// The figures as read back (a shard's result, a child's record): `digests` when known, else only
    /// the count (then merging with another campaign's gives a lower bound).
    package init(
        runs: Int, distinct: Int, isLowerBound: Bool, runsWithoutDecisions: Int, uncontrolled: [Uncontrolled],
        digests: Set<UInt64>
    ) {
        self.runs = runs
        self.distinct = distinct
        self.isLowerBound = isLowerBound
        self.runsWithoutDecisions = runsWithoutDecisions
        self.uncontrolled = uncontrolled.sorted { $0.kind < $1.kind }
        self.digests = digests
    }

    /// Counts one run of `seed`.
    public mutating func add(_ result: RunResult, seed: UInt64) {
        runs += 1
        if result.scheduleDigest == Digest().value { runsWithoutDecisions += 1 }
        insert(result.scheduleDigest)
        add(uncontrolled: result.uncontrolled, seed: seed)
    }

    /// Counts one run's schedule digest (when the run itself is not at hand: a worker's board).
    package mutating func insert(_ digest: UInt64) {
        guard !isLowerBound else { return }
        if digests.insert(digest).inserted {
            distinct += 1
            if distinct > Self.maxCounted {
                isLowerBound = true
                distinct = Self.maxCounted
                digests = []
            }
        }
    }

    /// Counts one run's uncontrolled observations (each kind once per run, its occurrences summed).
    package mutating func add(uncontrolled observations: [SimCore.Uncontrolled], seed: UInt64) {
        var kinds: [UncontrolledKind] = []
        for observation in observations where !kinds.contains(observation.kind) {
            kinds.append(observation.kind)
            let seen = observations.filter { $0.kind == observation.kind }.reduce(0) { $0 + $1.count }
            // The example is what was seen (its count in that one run is in `occurrences`).
            var example = observation
            example.count = 1
            add(Uncontrolled(kind: observation.kind, runs: 1, occurrences: seen, example: example, seed: seed))
        }
    }

    /// Adds one kind's counts.
    package mutating func add(_ entry: Uncontrolled) {
        if let index = uncontrolled.firstIndex(where: { $0.kind == entry.kind }) {
            uncontrolled[index].add(entry)
        } else {
            uncontrolled.append(entry)
            uncontrolled.sort { $0.kind < $1.kind }
        }
    }

    /// Adds runs without decisions counted elsewhere (a worker's board).
    package mutating func add(runs more: Int, withoutDecisions silent: Int) {
        runs += more
        runsWithoutDecisions += silent
    }

    /// Adds another part of the same campaign (a worker thread's, a shard's): distinct schedules by
    /// the union of the digests while both are known exactly, else at least the larger count.
    public mutating func merge(_ other: Explored) {
        runs += other.runs
        runsWithoutDecisions += other.runsWithoutDecisions
        for entry in other.uncontrolled { add(entry) }
        if isLowerBound || other.isLowerBound || (digests.count != distinct) || (other.digests.count != other.distinct) {
            // One side is only a count: the union is at least the larger of the two.
            distinct = max(distinct, other.distinct)
            isLowerBound = true
            digests = []
            return
        }
        for digest in other.digests { insert(digest) }
    }

    /// Every run took the same schedule, and there was more than one run: the campaign explored
    /// nothing beyond its first run.
    public var exploredNothing: Bool { runs > 1 && distinct <= 1 && !isLowerBound }

    /// True when the runs saw something they did not control: a pass over them is no plain pass.
    public var sawUncontrolled: Bool { !uncontrolled.isEmpty }

    /// `7 distinct schedules of 7 runs`, `more than 16384 distinct schedules of 20000 runs`.
    public var figure: String { "\(distinctText) of \(runs) run\(runs == 1 ? "" : "s")" }

    /// `7 distinct schedules`, `1 distinct schedule`, `more than 16384 distinct schedules`.
    public var distinctText: String {
        let count = isLowerBound ? "more than \(distinct)" : "\(distinct)"
        return "\(count) distinct schedule\(distinct == 1 && !isLowerBound ? "" : "s")"
    }

    /// What a campaign that passed must still say about what it explored, most telling first (nil:
    /// nothing to say: it explored more than one schedule and controlled all it saw).
    public var note: String? {
        if sawUncontrolled {
            let kinds = uncontrolled.map(\.kind.rawValue).joined(separator: ", ")
            let nothing = exploredNothing ? "every schedule was the same, and " : ""
            return "not a plain pass: \(nothing)the runs used what simrun did not control (\(kinds)), whose orders no "
                + "schedule explored"
        }
        if exploredNothing {
            return runsWithoutDecisions == runs
                ? "nothing explored: no run offered the scheduler a choice, so every schedule was the same (the pass covers one order)"
                : "nothing explored: every run took the same schedule (the pass covers one order)"
        }
        return nil
    }

    /// One line per uncontrolled kind: `invisible-lock in 12 of 20 runs (first at seed 3: Mutex.withLock (Cart.add(_:)))`.
    public var uncontrolledLines: [String] {
        uncontrolled.map {
            "\($0.kind) in \($0.runs) of \(runs) run\(runs == 1 ? "" : "s") (first at seed \($0.seed): \($0.example.detail)"
                + ($0.example.site.isEmpty ? "" : ", \($0.example.site)") + ")"
        }
    }
}

/// What a campaign amounts to, decided once here for every presenter (`fuzz`, `merge`, SimTesting).
public enum CampaignVerdict: String, Sendable, Equatable {
    /// Something was found: a failure, a crash, a run that differed between processes.
    case fail
    /// Stopped by Ctrl-C or SIGTERM with nothing found.
    case interrupted
    /// Nothing failed, but the runs used what simrun did not control: not a plain pass.
    case inconclusive
    /// Nothing failed and the scheduler held everything the runs did (see ``Explored/note`` for a
    /// campaign that still explored only one schedule).
    case pass

    /// The verdict of a campaign that found something or not, was interrupted or not, and explored `explored`.
    public init(foundSomething: Bool, interrupted: Bool, explored: Explored) {
        if foundSomething {
            self = .fail
        } else if interrupted {
            self = .interrupted
        } else if explored.sawUncontrolled {
            self = .inconclusive
        } else {
            self = .pass
        }
    }
}
